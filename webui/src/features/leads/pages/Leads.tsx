import { useId, useState } from 'react'
import { useSearchParams } from 'react-router-dom'
import { DashPageHeader } from '../../../components/dashboard/DashPageHeader'
import { LoadState } from '../../../components/dashboard/LoadState'
import { DownloadIcon } from '../../../components/icons/DownloadIcon'
import { Button, buttonClass } from '../../../components/ui/Button'
import { Card } from '../../../components/ui/Card'
import { api, buildUrl } from '../../../lib/api-client'
import type { components } from '../../../lib/api-schema'
import { useApiData } from '../../../lib/use-api-data'
// Loaded with this page only (admins).
import '../leads.css'

export const LEADS_PATH = '/api/admin/leads'
export const LEADS_CSV_PATH = '/api/admin/leads.csv'

export type Lead = components['schemas']['LeadOut']

/** A `mailto:` link to exactly this address: each side of the `@` is percent-encoded, so an
 * address stored before the server checked them (`x@e.com?cc=...&body=...`) cannot add
 * recipients, a subject or a body to the admin's mail. */
export function mailtoHref(email: string): string {
  const at = email.lastIndexOf('@')
  if (at < 0) return `mailto:${encodeURIComponent(email)}`
  return `mailto:${encodeURIComponent(email.slice(0, at))}@${encodeURIComponent(email.slice(at + 1))}`
}

interface Source {
  source: string
  label: string
}

/** The public forms that store leads (the server's leads FORMS), so the filter offers them before any lead came in. */
export const KNOWN_SOURCES: readonly Source[] = [
  { source: 'ai-automation-strategy-call', label: 'AI automation strategy call' },
  { source: 'ai-onboarding-audit', label: 'AI onboarding audit' },
  { source: 'ai-booking-demo', label: 'AI booking demo' },
  { source: 'clinic-consultation', label: 'Clinic consultation' },
  { source: 'free-preview', label: 'Real Estate Website Rebuild' },
]

const receivedFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
})

/** "23 Nov 2026, 11:42" in the reader's time zone; the raw text when it is not a date. */
export function formatReceived(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : receivedFormat.format(date)
}

/** The leads query for a filter: no `source` at all for every source. */
function sourceQuery(source: string) {
  return { query: { source: source || undefined } }
}

/** `seen` plus the sources of `leads` not in it yet; `seen` itself when there are none. */
function withSeenSources(seen: Source[], leads: readonly Lead[]): Source[] {
  const bySource = new Map(seen.map((s) => [s.source, s]))
  for (const lead of leads) {
    if (!bySource.has(lead.source)) bySource.set(lead.source, { source: lead.source, label: lead.source_label })
  }
  return bySource.size > seen.length ? [...bySource.values()] : seen
}

/** Known sources plus any other source seen in the data, sorted by label. */
function sourceOptions(seen: readonly Source[]): Source[] {
  const bySource = new Map<string, Source>(KNOWN_SOURCES.map((s) => [s.source, s]))
  for (const s of seen) if (!bySource.has(s.source)) bySource.set(s.source, s)
  return [...bySource.values()].sort((a, b) => a.label.localeCompare(b.label))
}

export default function LeadsPage() {
  const [params, setParams] = useSearchParams()
  const source = params.get('source') ?? ''
  const loaded = useApiData(source, async () => (await api.get(LEADS_PATH, sourceQuery(source))).leads)
  const selectId = useId()

  // Sources met in any answer stay in the filter (adjusted while rendering: no extra commit).
  const [seen, setSeen] = useState<Source[]>([])
  if (loaded.data !== null) {
    const next = withSeenSources(seen, loaded.data)
    if (next !== seen) setSeen(next)
  }

  const choose = (next: string) => setParams(next ? { source: next } : {}, { replace: true })

  const options = sourceOptions(seen)
  const current = options.find((s) => s.source === source)
  const sourceName = current?.label ?? source

  return (
    <div className="dash-page">
      <DashPageHeader
        heading="Leads"
        text="Everyone who sent a form on a landing page or asked for a free preview, newest first."
      />
      <div className="leads-toolbar">
        <div className="field leads-toolbar__filter">
          <label className="field__label" htmlFor={selectId}>
            Source
          </label>
          <select id={selectId} className="input" value={source} onChange={(e) => choose(e.target.value)}>
            <option value="">All sources</option>
            {options.map((s) => (
              <option key={s.source} value={s.source}>
                {s.label}
              </option>
            ))}
            {source && !current && <option value={source}>{source}</option>}
          </select>
        </div>
        <a className={buttonClass({ variant: 'outline' }, 'leads-toolbar__csv')} href={buildUrl(LEADS_CSV_PATH, sourceQuery(source))} download="leads.csv">
          <DownloadIcon size={18} />
          Download CSV
        </a>
      </div>
      <LoadState state={loaded} loading="Loading the leads" failed="We could not load the leads.">
        {(leads) =>
          leads.length === 0 ? (
            <NoLeads source={source} sourceName={sourceName} onShowAll={() => choose('')} />
          ) : (
            <LeadTable leads={leads} source={source} sourceName={sourceName} />
          )
        }
      </LoadState>
    </div>
  )
}

interface Shown {
  /** The filter (empty: all sources) and its label. */
  source: string
  sourceName: string
}

function NoLeads({ source, sourceName, onShowAll }: Shown & { onShowAll: () => void }) {
  return (
    <Card className="dash-card empty-state">
      {source ? (
        <>
          <p className="empty-state__title">No leads from “{sourceName}” yet.</p>
          <p className="empty-state__text">Choose another source, or see the leads from every form.</p>
          <Button size="sm" variant="outline" onClick={onShowAll}>
            Show all sources
          </Button>
        </>
      ) : (
        <>
          <p className="empty-state__title">No leads yet.</p>
          <p className="empty-state__text">
            When a visitor sends one of the forms on the landing pages or requests a free preview, the lead appears
            here and the agency gets an e-mail.
          </p>
        </>
      )}
    </Card>
  )
}

function LeadTable({ leads, source, sourceName }: Shown & { leads: Lead[] }) {
  return (
    <section className="dash-section" aria-labelledby="leads-title">
      <h2 id="leads-title" className="visually-hidden">
        {source ? `Leads from ${sourceName}` : 'All leads'}
      </h2>
      <p className="leads-count" aria-live="polite">
        {leads.length === 1 ? '1 lead' : `${leads.length} leads`}
        {source ? ` from ${sourceName}` : ''}
      </p>
      <div className="table-wrap card">
        <table className="data-table leads-table">
          <thead>
            <tr>
              <th scope="col">Received</th>
              <th scope="col">E-mail</th>
              <th scope="col">Name</th>
              <th scope="col">Domain</th>
              <th scope="col">Source</th>
            </tr>
          </thead>
          <tbody>
            {leads.map((lead) => (
              <tr key={lead.id}>
                <td data-label="Received">
                  <time dateTime={lead.created_at}>{formatReceived(lead.created_at)}</time>
                </td>
                <td data-label="E-mail">
                  <a href={mailtoHref(lead.email)}>{lead.email}</a>
                </td>
                <td data-label="Name">{lead.name || '—'}</td>
                <td data-label="Domain">{lead.domain || '—'}</td>
                <td data-label="Source">{lead.source_label}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}
