import { useId, useState, type FormEvent } from 'react'
import { useSearchParams } from 'react-router-dom'
import { DashPageHeader } from '../../../components/dashboard/DashPageHeader'
import { LoadState } from '../../../components/dashboard/LoadState'
import { DownloadIcon } from '../../../components/icons/DownloadIcon'
import { Button } from '../../../components/ui/Button'
import { Card } from '../../../components/ui/Card'
import { ErrorBox } from '../../../components/ui/ErrorBox'
import { errorMessage } from '../../../lib/api-client'
import { formValues } from '../../../lib/forms'
import { useApiData } from '../../../lib/use-api-data'
import {
  COMMAND_LINE,
  auditCsv,
  changesOf,
  downloadText,
  fetchAuditPage,
  filterQuery,
  filtersFrom,
  formatWhen,
  isFiltered,
  type AuditAction,
  type AuditEntry,
  type AuditFilters,
  type AuditPage,
} from '../audit'
// Its styles are in styles/dashboard.css (see the note there).

export const MSG_RANGE = "The 'to' day must not be before the 'from' day."

/** Older pages fetched with "Load more", for the filters they were fetched with. */
interface More {
  key: string
  entries: AuditEntry[]
  /** `before_id` of the next page: undefined until a page was loaded here (the first page's then). */
  next: number | null | undefined
  busy: boolean
  error: string | null
}

const fresh = (key: string): More => ({ key, entries: [], next: undefined, busy: false, error: null })

const TARGET_TYPES: Record<string, string> = {
  site: 'Website',
  support_request: 'Support request',
  article: 'Article',
  user: 'User',
  withdrawal: 'Withdrawal',
  plan: 'Plan',
}

/** /dashboard/admin/audit (admins): who changed what and when, filtered, newest first, a page at a time. */
export default function AdminAuditPage() {
  const [params, setParams] = useSearchParams()
  const filters = filtersFrom(params)
  const key = JSON.stringify(filterQuery(filters))
  const first = useApiData(key, () => fetchAuditPage(filters))
  const [more, setMore] = useState<More>(() => fresh(key))
  // The actions the server knows, kept while another filter loads (adjusted while rendering).
  const [actions, setActions] = useState<AuditAction[] | null>(null)
  if (more.key !== key) setMore(fresh(key))
  if (first.data !== null && actions === null) setActions(first.data.actions)

  const apply = (next: AuditFilters) => setParams(filterQuery(next), { replace: true })
  const clear = () => setParams({}, { replace: true })

  const loadMore = (page: AuditPage) => {
    const beforeId = more.next === undefined ? page.next_before_id : more.next
    if (beforeId === null || beforeId === undefined) return
    setMore((m) => ({ ...m, busy: true, error: null }))
    fetchAuditPage(filters, beforeId).then(
      (older) =>
        setMore((m) => (m.key !== key ? m : { ...m, entries: [...m.entries, ...older.entries], next: older.next_before_id, busy: false })),
      (err: unknown) => setMore((m) => (m.key !== key ? m : { ...m, busy: false, error: errorMessage(err) })),
    )
  }

  return (
    <div className="dash-page">
      <DashPageHeader
        heading="Audit log"
        text="Who changed what and when: website status, support replies, articles, prices and plans, roles and withdrawals, with the values before and after."
      />
      <Filters key={key} filters={filters} actions={actions ?? []} onApply={apply} onClear={clear} />
      <LoadState state={first} loading="Loading the audit log" failed="We could not load the audit log.">
        {(page) => {
          const entries = more.entries.length > 0 ? [...page.entries, ...more.entries] : page.entries
          const next = more.next === undefined ? page.next_before_id : more.next
          if (entries.length === 0) return <Empty filtered={isFiltered(filters)} onClear={clear} />
          return (
            <section className="dash-section" aria-labelledby="audit-title">
              <h2 id="audit-title" className="visually-hidden">
                Entries
              </h2>
              <div className="audit-toolbar">
                <p className="audit-count" aria-live="polite">
                  {entries.length === 1 ? '1 entry' : `${entries.length} entries`}
                  {next !== null ? ' shown, older ones below “Load more”' : ''}
                </p>
                <Button variant="outline" onClick={() => downloadText(auditCsv(entries), 'audit-log.csv')}>
                  <DownloadIcon size={18} />
                  Download CSV <span className="visually-hidden">of the {entries.length === 1 ? 'entry' : `${entries.length} entries`} shown</span>
                </Button>
              </div>
              <EntryTable entries={entries} />
              {more.error && (
                <ErrorBox title="We could not load more entries." className="audit-more-error">
                  {more.error}
                </ErrorBox>
              )}
              {next !== null && (
                <div className="audit-more">
                  <Button variant="outline" busy={more.busy} onClick={() => loadMore(page)}>
                    {more.error ? 'Try again' : 'Load more'}
                  </Button>
                </div>
              )}
            </section>
          )
        }}
      </LoadState>
    </div>
  )
}

interface FiltersProps {
  filters: AuditFilters
  actions: readonly AuditAction[]
  onApply: (filters: AuditFilters) => void
  onClear: () => void
}

function Filters({ filters, actions, onApply, onClear }: FiltersProps) {
  const ids = { action: useId(), actor: useId(), since: useId(), until: useId(), error: useId() }
  const [problem, setProblem] = useState<string | null>(null)
  const [since, setSince] = useState(filters.since)
  const known = actions.some((a) => a.key === filters.action)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const values = formValues(event.currentTarget, ['actor', 'since', 'until'])
    if (values.since && values.until && values.until < values.since) {
      setProblem(MSG_RANGE)
      return
    }
    setProblem(null)
    onApply({ ...filters, ...values })
  }
  return (
    <form className="audit-filters" onSubmit={submit} noValidate role="search" aria-label="Filter the audit log">
      <div className="field audit-filters__action">
        <label className="field__label" htmlFor={ids.action}>
          Action
        </label>
        <select id={ids.action} className="input" value={filters.action} onChange={(e) => onApply({ ...filters, action: e.target.value })}>
          <option value="">All actions</option>
          {actions.map((a) => (
            <option key={a.key} value={a.key}>
              {a.label}
            </option>
          ))}
          {filters.action && !known && <option value={filters.action}>{filters.action}</option>}
        </select>
      </div>
      <div className="field audit-filters__actor">
        <label className="field__label" htmlFor={ids.actor}>
          Admin
        </label>
        <input
          id={ids.actor}
          name="actor"
          className="input"
          type="search"
          maxLength={254}
          defaultValue={filters.actor}
          placeholder={`e-mail or “${COMMAND_LINE}”`}
          autoComplete="off"
        />
      </div>
      <div className="field audit-filters__day">
        <label className="field__label" htmlFor={ids.since}>
          From
        </label>
        <input
          id={ids.since}
          name="since"
          className="input"
          type="date"
          defaultValue={filters.since}
          onChange={(e) => setSince(e.target.value)}
          aria-describedby={problem ? ids.error : undefined}
        />
      </div>
      <div className="field audit-filters__day">
        <label className="field__label" htmlFor={ids.until}>
          To
        </label>
        <input
          id={ids.until}
          name="until"
          className="input"
          type="date"
          defaultValue={filters.until}
          min={since || undefined}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? ids.error : undefined}
        />
      </div>
      <div className="audit-filters__buttons">
        <Button type="submit" variant="outline">
          Apply filters
        </Button>
        {isFiltered(filters) && (
          <Button variant="ghost" onClick={onClear}>
            Clear filters
          </Button>
        )}
      </div>
      {problem && (
        <ErrorBox id={ids.error} className="audit-filters__error">
          {problem}
        </ErrorBox>
      )}
    </form>
  )
}

function Empty({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  return (
    <Card className="dash-card empty-state">
      {filtered ? (
        <>
          <p className="empty-state__title">No entries match these filters.</p>
          <p className="empty-state__text">Choose another action, admin or dates, or see every entry.</p>
          <Button size="sm" variant="outline" onClick={onClear}>
            Clear filters
          </Button>
        </>
      ) : (
        <>
          <p className="empty-state__title">Nothing recorded yet.</p>
          <p className="empty-state__text">
            When an admin changes a website&apos;s status, answers a support request, publishes an article, changes a plan
            or a role, it appears here with who did it, when, and the values before and after.
          </p>
        </>
      )}
    </Card>
  )
}

function EntryTable({ entries }: { entries: readonly AuditEntry[] }) {
  return (
    <div className="table-wrap card">
      <table className="data-table audit-table">
        <caption className="visually-hidden">Audit log, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Action</th>
            <th scope="col">What</th>
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <EntryRow key={entry.id} entry={entry} />
          ))}
        </tbody>
      </table>
    </div>
  )
}

function EntryRow({ entry }: { entry: AuditEntry }) {
  const changes = changesOf(entry)
  const kind = TARGET_TYPES[entry.target_type] ?? entry.target_type
  return (
    <tr>
      <td data-label="When">
        <time dateTime={entry.at}>{formatWhen(entry.at)}</time>
      </td>
      <td data-label="Who" className={entry.actor_id === null ? 'audit-table__cli' : undefined}>
        {entry.actor_label}
      </td>
      <td data-label="Action">{entry.action_label}</td>
      <td data-label="What">
        <span className="audit-table__kind">{kind}</span> {entry.target_label || `#${entry.target_id}`}
      </td>
      <td data-label="Change">
        {changes.length === 0 ? (
          '—'
        ) : (
          <ul className="audit-changes">
            {changes.map((change) => (
              <li key={change.field}>
                <span className="audit-changes__field">{change.label}:</span> <span className="audit-changes__before">{change.before}</span>
                <span aria-hidden="true"> → </span>
                <span className="visually-hidden"> changed to </span>
                <span className="audit-changes__after">{change.after}</span>
              </li>
            ))}
          </ul>
        )}
      </td>
    </tr>
  )
}
