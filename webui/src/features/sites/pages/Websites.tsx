import { useEffect, useState } from 'react'
import { DashPageHeader } from '../../../components/dashboard/DashPageHeader'
import { LoadState } from '../../../components/dashboard/LoadState'
import { WebsiteCards } from '../WebsiteCards'
import { NewWebsite, useSubscription } from '../NewWebsite'
import { Card } from '../../../components/ui/Card'
import { Notice } from '../../../components/ui/Notice'
import { MEASURING_POLL_MS, fetchWebsites, removeWebsite, type Website } from '../sites'
import { useApiData } from '../../../lib/use-api-data'
import '../sites.css'

export default function WebsitesPage() {
  const loaded = useApiData('websites', fetchWebsites)
  const subscription = useSubscription()
  const [left, setLeft] = useState<Website[] | null>(null)
  const [removed, setRemoved] = useState<string | null>(null)
  const shown = left ?? loaded.data
  const measuring = shown?.some((site) => site.measuring) ?? false

  useEffect(() => {
    if (!measuring) return
    const timer = window.setInterval(() => {
      fetchWebsites().then(setLeft, () => undefined) // a failed read: the next one tries again
    }, MEASURING_POLL_MS)
    return () => window.clearInterval(timer)
  }, [measuring])

  const remove = async (site: Website) => {
    setLeft(await removeWebsite(site.id))
    setRemoved(site.domain)
  }

  return (
    <div className="dash-page">
      <DashPageHeader heading="Your Websites" text="Every website we build and host for you, with its status and speed score." />
      <div className="sites-toolbar">
        <NewWebsite subscription={subscription}>New Website</NewWebsite>
      </div>
      {removed && (
        <Notice className="sites-notice">
          {removed} was removed from your websites.
        </Notice>
      )}
      <LoadState state={loaded} loading="Loading your websites" failed="We could not load your websites.">
        {(data) => {
          const websites = left ?? data
          return (
            <>
              {websites.length === 0 && (
                <Card className="dash-card empty-state sites-empty">
                  <p className="empty-state__title">You have no websites yet.</p>
                  <p className="empty-state__text">Order a website and it appears here while we build it, then with its speed score.</p>
                </Card>
              )}
              <WebsiteCards websites={websites} onRemove={remove} subscription={subscription} />
            </>
          )
        }}
      </LoadState>
    </div>
  )
}
