import { useState } from 'react'
import { DashPageHeader } from '../../../components/dashboard/DashPageHeader'
import { LoadState } from '../../../components/dashboard/LoadState'
import { Button } from '../../../components/ui/Button'
import { Card } from '../../../components/ui/Card'
import { ErrorBox } from '../../../components/ui/ErrorBox'
import { errorMessage } from '../../../lib/api-client'
import { useApiData } from '../../../lib/use-api-data'
import { fetchAdminContracts, formatDay, formatDayTime, markWithdrawalHandled } from '../contracts'
import '../contracts.css'

const VIA: Record<string, string> = { cancel_page: 'Cancel page', dashboard: 'Dashboard / portal' }

/** /dashboard/admin/contracts (admins): withdrawals with their deadline, and cancellations with the date each subscription ends. */
export default function AdminContractsPage() {
  const loaded = useApiData('contracts', fetchAdminContracts)
  const [busy, setBusy] = useState<number | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const handled = async (id: number) => {
    setBusy(id)
    setProblem(null)
    try {
      await markWithdrawalHandled(id)
      loaded.reload()
    } catch (err) {
      setProblem(errorMessage(err))
    } finally {
      setBusy(null)
    }
  }
  return (
    <div className="dash-page">
      <DashPageHeader
        heading="Withdrawals and cancellations"
        text="Withdrawals from /withdraw (reimburse within 14 days of receipt) and cancelled subscriptions, newest first."
      />
      <LoadState state={loaded} loading="Loading the withdrawals and cancellations" failed="We could not load the withdrawals and cancellations.">
        {(data) => (
          <>
            <Card className="dash-card">
              <h2 className="contracts-admin__heading">Withdrawals ({data.withdrawals.length})</h2>
              {problem && <ErrorBox>{problem}</ErrorBox>}
              {data.withdrawals.length === 0 ? (
                <p>No withdrawals yet.</p>
              ) : (
                <div className="contracts-admin__scroll">
                  <table className="contracts-admin__table">
                    <thead>
                      <tr>
                        <th scope="col">Received</th>
                        <th scope="col">Order</th>
                        <th scope="col">Customer</th>
                        <th scope="col">Ordered on</th>
                        <th scope="col">Deadline</th>
                        <th scope="col">Status</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.withdrawals.map((row) => (
                        <tr key={row.id}>
                          <td>{formatDayTime(row.received_at)}</td>
                          <td>
                            {row.order_number} ({row.plan_name}){row.domain ? `, ${row.domain}` : ''}
                          </td>
                          <td>{row.email}</td>
                          <td>{formatDay(row.ordered_at)}</td>
                          <td>{formatDay(row.deadline)}</td>
                          <td>
                            {row.status}
                            {row.status !== 'handled' && (
                              <Button
                                size="sm"
                                variant="outline"
                                className="contracts-admin__action"
                                busy={busy === row.id}
                                onClick={() => void handled(row.id)}
                              >
                                Mark handled
                              </Button>
                            )}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </Card>
            <Card className="dash-card">
              <h2 className="contracts-admin__heading">Cancellations ({data.cancellations.length})</h2>
              {data.cancellations.length === 0 ? (
                <p>No cancellations yet.</p>
              ) : (
                <div className="contracts-admin__scroll">
                  <table className="contracts-admin__table">
                    <thead>
                      <tr>
                        <th scope="col">Requested</th>
                        <th scope="col">Subscription</th>
                        <th scope="col">Customer</th>
                        <th scope="col">Type</th>
                        <th scope="col">Ends on</th>
                        <th scope="col">Status</th>
                        <th scope="col">Via</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.cancellations.map((row) => (
                        <tr key={`${row.via}-${row.subscription_id}-${row.requested_at ?? ''}`}>
                          <td>{formatDayTime(row.requested_at)}</td>
                          <td>{row.plan_name}</td>
                          <td>{row.email ?? '-'}</td>
                          <td>
                            {row.kind === 'extraordinary' ? 'Extraordinary' : 'Ordinary'}
                            {row.reason && <p className="contracts-admin__reason">{row.reason}</p>}
                          </td>
                          <td>{formatDay(row.ends_at)}</td>
                          <td>{row.status}</td>
                          <td>{VIA[row.via] ?? row.via}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </Card>
          </>
        )}
      </LoadState>
    </div>
  )
}
