import { DashPageHeader } from '../../../components/dashboard/DashPageHeader'
import { LoadState } from '../../../components/dashboard/LoadState'
import { SupportForm } from '../SupportForm'
import { SupportRequestList } from '../SupportRequestList'
import { Card } from '../../../components/ui/Card'
import { fetchWebsites } from '../../sites'
import { fetchMyRequests } from '../support'
import { useApiData } from '../../../lib/use-api-data'
import '../support.css'

/** /dashboard/support: a request form (optionally about one of the customer's websites) and their past requests with status and replies. */
export default function DashboardSupportPage() {
  const requests = useApiData('support', fetchMyRequests)
  // The websites only feed the optional select: the form works without them.
  const websites = useApiData('websites', async () => {
    try {
      return await fetchWebsites()
    } catch {
      return []
    }
  })

  return (
    <div className="dash-page">
      <DashPageHeader heading="Support" text="Send us a support request and follow your past requests here." />
      <div className="support-layout">
        <section aria-labelledby="support-new-title">
          <h2 id="support-new-title" className="support-section__title">
            New request
          </h2>
          <Card className="dash-card">
            <SupportForm
              visitor={false}
              websites={(websites.data ?? []).map((site) => ({ id: site.id, domain: site.domain }))}
              onSent={requests.reload}
            />
          </Card>
        </section>
        <section aria-labelledby="support-past-title">
          <h2 id="support-past-title" className="support-section__title">
            Your requests
          </h2>
          <LoadState state={requests} loading="Loading your requests" failed="We could not load your requests.">
            {(rows) => <SupportRequestList requests={rows} />}
          </LoadState>
        </section>
      </div>
    </div>
  )
}
