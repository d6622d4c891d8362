import { DashPageHeader } from '../../../components/dashboard/DashPageHeader'
import { LoadState } from '../../../components/dashboard/LoadState'
import { ScoreChart } from '../ScoreChart'
import { SpeedFigures } from '../SpeedFigures'
import { Card } from '../../../components/ui/Card'
import { Link } from '../../../lib/router'
import { MEASURING_TEXT, fetchAnalytics } from '../sites'
import { NewWebsite, useSubscription } from '../NewWebsite'
import { useApiData } from '../../../lib/use-api-data'
import '../sites.css'

export default function AnalyticsPage() {
  const loaded = useApiData('analytics', async () => ({ sites: await fetchAnalytics() }))
  const subscription = useSubscription()
  return (
    <div className="dash-page">
      <DashPageHeader heading="Analytics" text="The speed of every website we run for you: the latest figures and the score over time." />
      <LoadState state={loaded} loading="Loading your figures" failed="We could not load your figures.">
        {({ sites }) =>
          sites.length === 0 ? (
            <Card className="dash-card empty-state">
              <p className="empty-state__title">No websites yet.</p>
              <p className="empty-state__text">Once we build your website, its speed figures appear here.</p>
              <NewWebsite subscription={subscription} size="sm">
                New Website
              </NewWebsite>
            </Card>
          ) : (
            <ul className="analytics-list">
              {sites.map((entry) => (
                <li key={entry.website.id}>
                  <Card className="dash-card analytics-site" aria-labelledby={`analytics-${entry.website.id}`}>
                    <h2 id={`analytics-${entry.website.id}`} className="dash-card__title">
                      <Link to={`/dashboard/websites/${entry.website.id}`}>{entry.website.domain}</Link>
                    </h2>
                    <div className="analytics-site__body">
                      {entry.latest ? (
                        <SpeedFigures result={entry.latest} at={entry.latest_at} />
                      ) : (
                        <p className="site-detail__none">{entry.website.measuring ? MEASURING_TEXT : 'No speed test yet.'}</p>
                      )}
                      <ScoreChart domain={entry.website.domain} history={entry.history} liveAt={entry.website.went_live_at} compact />
                    </div>
                  </Card>
                </li>
              ))}
            </ul>
          )
        }
      </LoadState>
    </div>
  )
}
