import { DashPageHeader } from '../../../components/dashboard/DashPageHeader'
import { LoadState } from '../../../components/dashboard/LoadState'
import { ScoreChart } from '../ScoreChart'
import { SpeedFigures } from '../SpeedFigures'
import { Badge } from '../../../components/ui/Badge'
import { Button, ButtonLink } from '../../../components/ui/Button'
import { Card } from '../../../components/ui/Card'
import { ErrorBox } from '../../../components/ui/ErrorBox'
import { MEASURING_POLL_MS, MEASURING_TEXT, websiteStatusTone, fetchWebsite, formatDay, type WebsiteDetail } from '../sites'
import { cx } from '../../../lib/cx'
import { useRouteParams } from '../../../lib/router'
import { useApiData } from '../../../lib/use-api-data'
import { useSiteCheck } from '../use-site-check'
import { useEffect } from 'react'
import '../sites.css'

export default function WebsiteDetailPage() {
  const { id = '' } = useRouteParams()
  const siteId = /^\d{1,9}$/.test(id) ? Number(id) : 0
  const loaded = useApiData(`website-${siteId}`, () => fetchWebsite(siteId))

  if (siteId === 0) {
    return (
      <div className="dash-page">
        <DashPageHeader heading="Website details" />
        <ErrorBox>This website does not exist.</ErrorBox>
      </div>
    )
  }
  return (
    <div className="dash-page">
      <LoadState state={loaded} loading="Loading the website" failed="We could not load this website.">
        {(site) => <Detail site={site} siteId={siteId} reload={loaded.reload} />}
      </LoadState>
      <p className="site-detail__back">
        <ButtonLink to="/dashboard/websites" variant="outline" size="sm">
          Back to your websites
        </ButtonLink>
      </p>
    </div>
  )
}

function Detail({ site, siteId, reload }: { site: WebsiteDetail; siteId: number; reload: () => void }) {
  const { website } = site
  const check = useSiteCheck(siteId, site.check, reload)
  const percent = Math.floor(check.progress)
  const failure = check.error ?? (check.check?.status === 'failed' ? (check.check.error ?? 'Failed to test website speed.') : null)
  // Gone live and waiting for the first test of the live site: read the site again until that
  // test has started (then the check is followed) or ended.
  const waiting = website.measuring && !check.running
  useEffect(() => {
    if (!waiting) return
    const timer = window.setInterval(() => {
      fetchWebsite(siteId).then(
        (next) => {
          if (!next.website.measuring || next.check?.id !== site.check?.id) reload()
        },
        () => undefined,
      )
    }, MEASURING_POLL_MS)
    return () => window.clearInterval(timer)
  }, [waiting, siteId, site.check?.id, reload])
  return (
    <>
      <DashPageHeader heading={website.domain} text={`Added ${formatDay(website.created_at)}.`} />
      <div className="site-detail">
        <Card className="dash-card site-detail__status" aria-labelledby="site-status">
          <h2 id="site-status" className="dash-card__title">
            Status{' '}
            <Badge tone={websiteStatusTone(website.status)} className={cx('status-badge', `status-badge--${website.status}`)}>
              {website.status.toUpperCase()}
            </Badge>
          </h2>
          <p className="site-detail__next">{site.status_text}</p>
          {site.delivery && website.status === 'building' && <p className="site-detail__delivery">{site.delivery}</p>}
          {site.plan_name && <p className="site-detail__plan">Plan: {site.plan_name}</p>}
        </Card>

        <Card className="dash-card site-detail__speed" aria-labelledby="site-speed">
          <h2 id="site-speed" className="dash-card__title">
            Latest speed result
          </h2>
          {site.latest ? (
            <SpeedFigures result={site.latest} at={site.latest_at} />
          ) : (
            <p className="site-detail__none" role={website.measuring ? 'status' : undefined}>
              {website.measuring ? MEASURING_TEXT : 'No speed test yet.'}
            </p>
          )}
          <div className="site-detail__run">
            <Button onClick={check.start} busy={check.starting} disabled={check.running}>
              {check.running ? 'Speed test running…' : 'Run speed test'}
            </Button>
            {check.running && (
              <div className="site-check">
                <progress className="score-bar site-check__bar" max={100} value={check.progress} aria-label={`Speed test of ${website.domain}`} aria-valuetext={`${percent}%`} />
                <p className="site-check__text" role="status">
                  Testing {website.domain}… {percent}%
                </p>
              </div>
            )}
            {failure && <ErrorBox>{failure}</ErrorBox>}
          </div>
        </Card>

        <Card className="dash-card site-detail__history" aria-labelledby="site-history">
          <h2 id="site-history" className="dash-card__title">
            Speed score history
          </h2>
          <ScoreChart domain={website.domain} history={site.history} liveAt={website.went_live_at} />
        </Card>
      </div>
    </>
  )
}

