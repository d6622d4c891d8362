import { useId, useState, type FormEvent } from 'react'
import { useSearchParams } from 'react-router-dom'
import { DashPageHeader } from '../../../components/dashboard/DashPageHeader'
import { LoadState } from '../../../components/dashboard/LoadState'
import { Badge } from '../../../components/ui/Badge'
import { Button } from '../../../components/ui/Button'
import { Card } from '../../../components/ui/Card'
import { ErrorBox } from '../../../components/ui/ErrorBox'
import { Notice } from '../../../components/ui/Notice'
import { errorMessage } from '../../../lib/api-client'
import {
  websiteStatusTone,
  STATUSES,
  clampScore,
  fetchAdminWebsites,
  formatDay,
  setWebsiteStatus,
  statusLabel,
  type AdminWebsite,
  type SiteStatus,
} from '../sites'
import { cx } from '../../../lib/cx'
import { formValues } from '../../../lib/forms'
import { useApiData } from '../../../lib/use-api-data'
import '../sites.css'

/** The agency's websites: every customer's site, filtered by status, searched by domain or customer; a status changes here (going live e-mails and notifies the customer). */
export default function AdminWebsitesPage() {
  const [params, setParams] = useSearchParams()
  const status = params.get('status') ?? ''
  const q = params.get('q') ?? ''
  const loaded = useApiData(`admin-sites:${status}:${q}`, async () => ({ websites: await fetchAdminWebsites(status, q) }))
  const [changed, setChanged] = useState<string | null>(null)
  const statusId = useId()
  const searchId = useId()

  const show = (next: { status?: string; q?: string }) => {
    const values = { status, q, ...next }
    const query: Record<string, string> = {}
    if (values.status) query.status = values.status
    if (values.q.trim()) query.q = values.q.trim()
    setParams(query, { replace: true })
  }
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    show(formValues(event.currentTarget, ['q']))
  }

  return (
    <div className="dash-page">
      <DashPageHeader heading="All websites" text="Every customer's website: move a site to live when it is delivered, or pause and cancel it." />
      <form className="sites-filters" onSubmit={submit} role="search">
        <div className="field">
          <label className="field__label" htmlFor={statusId}>
            Status
          </label>
          <select id={statusId} className="input" value={status} onChange={(e) => show({ status: e.target.value })}>
            <option value="">All statuses</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </select>
        </div>
        <div className="field sites-filters__search">
          <label className="field__label" htmlFor={searchId}>
            Domain or customer
          </label>
          <input id={searchId} name="q" className="input" type="search" maxLength={100} defaultValue={q} />
        </div>
        <Button type="submit" variant="outline">
          Search
        </Button>
      </form>
      {changed && <Notice className="sites-notice">{changed}</Notice>}
      <LoadState state={loaded} loading="Loading the websites" failed="We could not load the websites.">
        {({ websites }) =>
          websites.length === 0 ? (
            <Card className="dash-card empty-state">
              <p className="empty-state__title">No websites match.</p>
              <p className="empty-state__text">Choose another status or search for something else.</p>
            </Card>
          ) : (
            <div className="sites-table-wrap">
              <table className="sites-table">
                <caption className="visually-hidden">Websites, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Domain</th>
                    <th scope="col">Customer</th>
                    <th scope="col">Score</th>
                    <th scope="col">Added</th>
                    <th scope="col">Status</th>
                  </tr>
                </thead>
                <tbody>
                  {websites.map((site) => (
                    <SiteRow key={site.id} site={site} onChanged={(next) => {
                      setChanged(`${next.domain} is now ${next.status}.`)
                      loaded.reload()
                    }} />
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </LoadState>
    </div>
  )
}

function SiteRow({ site, onChanged }: { site: AdminWebsite; onChanged: (site: AdminWebsite) => void }) {
  const initial: SiteStatus = STATUSES.find((s) => s === site.status) ?? 'building'
  // Whether the status picked in the row's select (which holds it) is not the site's.
  const [changed, setChanged] = useState(initial !== site.status)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const selectId = useId()
  const score = clampScore(site.page_speed)
  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const picked = formValues(event.currentTarget, ['status']).status
    const next = STATUSES.find((s) => s === picked) ?? initial
    setBusy(true)
    setError(null)
    setWebsiteStatus(site.id, next)
      .then((saved) => {
        setChanged(false)
        onChanged(saved)
      })
      .catch((err: unknown) => setError(errorMessage(err)))
      .finally(() => setBusy(false))
  }
  return (
    <tr data-domain={site.domain}>
      <th scope="row">{site.domain}</th>
      <td data-label="Customer">
        {site.customer_name && <span className="sites-table__name">{site.customer_name}</span>}
        <span className="sites-table__email">{site.customer_email ?? 'Deleted account'}</span>
      </td>
      <td data-label="Score">{score === null ? 'N/A' : `${score}/100`}</td>
      <td data-label="Added">{formatDay(site.created_at)}</td>
      <td data-label="Status">
        <form className="sites-table__status" onSubmit={save}>
          <Badge tone={websiteStatusTone(site.status)} className={cx('status-badge', `status-badge--${site.status}`)}>
            {site.status.toUpperCase()}
          </Badge>
          <label className="visually-hidden" htmlFor={selectId}>
            New status of {site.domain}
          </label>
          <select id={selectId} name="status" className="input input--sm" defaultValue={initial} onChange={(e) => setChanged(e.target.value !== site.status)}>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </select>
          <Button type="submit" size="sm" busy={busy} disabled={!changed}>
            Update<span className="visually-hidden"> {site.domain}</span>
          </Button>
        </form>
        {error && <ErrorBox>{error}</ErrorBox>}
      </td>
    </tr>
  )
}
