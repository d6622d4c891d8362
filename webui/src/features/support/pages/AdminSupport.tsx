import { useId, useState } from 'react'
import { useSearchParams } from 'react-router-dom'
import { DashPageHeader } from '../../../components/dashboard/DashPageHeader'
import { LoadState } from '../../../components/dashboard/LoadState'
import { Badge } from '../../../components/ui/Badge'
import { Button } from '../../../components/ui/Button'
import { Card } from '../../../components/ui/Card'
import { ErrorBox } from '../../../components/ui/ErrorBox'
import { concerns, formValues, problem, problemFromError, type FormProblem } from '../../../lib/forms'
import {
  fetchAllRequests,
  formatWhen,
  MESSAGE_MAX,
  MSG_REPLY,
  replyTo,
  resolve,
  statusLabel,
  statusTone,
  SUPPORT_STATUSES,
  type AdminSupportRequest,
} from '../support'
import { useApiData } from '../../../lib/use-api-data'
import '../support.css'

/** /dashboard/admin/support (admins): every support request, filtered by status; reply by e-mail and mark resolved. */
export default function AdminSupportPage() {
  const [params, setParams] = useSearchParams()
  const status = params.get('status') ?? ''
  const loaded = useApiData(status, () => fetchAllRequests(status))
  const selectId = useId()
  const choose = (next: string) => setParams(next ? { status: next } : {}, { replace: true })

  return (
    <div className="dash-page">
      <DashPageHeader
        heading="Support requests"
        text="Requests from visitors and customers, newest first. A reply is e-mailed to the sender."
      />
      <div className="support-admin__toolbar">
        <div className="field">
          <label className="field__label" htmlFor={selectId}>
            Status
          </label>
          <select id={selectId} className="input" value={status} onChange={(e) => choose(e.target.value)}>
            <option value="">All requests</option>
            {SUPPORT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <LoadState state={loaded} loading="Loading the support requests" failed="We could not load the support requests.">
        {(rows) =>
          rows.length === 0 ? (
            <Card className="dash-card empty-state">
              <p className="empty-state__title">{status ? `No ${statusLabel(status).toLowerCase()} requests.` : 'No support requests yet.'}</p>
              <p className="empty-state__text">Requests sent from /support and the customers' dashboards appear here.</p>
            </Card>
          ) : (
            <>
              <p className="leads-count" aria-live="polite">
                {rows.length === 1 ? '1 request' : `${rows.length} requests`}
              </p>
              <ul className="support-list">
                {rows.map((row) => (
                  <li key={row.id}>
                    <AdminRequest row={row} onChanged={loaded.reload} />
                  </li>
                ))}
              </ul>
            </>
          )
        }
      </LoadState>
    </div>
  )
}

function AdminRequest({ row: initial, onChanged }: { row: AdminSupportRequest; onChanged: () => void }) {
  const id = useId()
  const [row, setRow] = useState(initial)
  const [busy, setBusy] = useState<'reply' | 'resolve' | null>(null)
  const [formProblem, setFormProblem] = useState<FormProblem | null>(null)
  const [done, setDone] = useState<string | null>(null)

  /** Sends the reply typed in `form` (its field `reply`), or marks the request resolved. */
  async function act(kind: 'reply' | 'resolve', form: HTMLFormElement) {
    if (busy) return
    const reply = formValues(form, ['reply']).reply.trim()
    if (kind === 'reply' && !reply) {
      setFormProblem(problem(MSG_REPLY, ['reply']))
      return
    }
    setFormProblem(null)
    setDone(null)
    setBusy(kind)
    try {
      const next = kind === 'reply' ? await replyTo(row.id, reply) : await resolve(row.id)
      setRow(next)
      if (kind === 'reply') form.reset()
      setDone(kind === 'reply' ? `Reply sent to ${next.email}.` : 'Marked resolved.')
    } catch (err) {
      setFormProblem(problemFromError(err))
    } finally {
      setBusy(null)
    }
  }
  const replyInvalid = concerns(formProblem, 'reply')

  return (
    <Card className="dash-card support-request" aria-labelledby={`${id}-subject`}>
      <div className="support-request__head">
        <h2 id={`${id}-subject`} className="support-request__subject">
          {row.subject}
        </h2>
        <Badge tone={statusTone(row.status)}>{statusLabel(row.status)}</Badge>
      </div>
      <p className="support-request__meta">
        #{row.id} from {row.name} &lt;{row.email}&gt;{row.user_id === null ? ' (visitor)' : ''} ·{' '}
        <time dateTime={row.created_at}>{formatWhen(row.created_at)}</time>
        {row.website_domain && <> · {row.website_domain}</>}
      </p>
      <p className="support-request__message">{row.message}</p>
      {row.replies.length > 0 && (
        <ol className="support-replies" aria-label="Replies">
          {row.replies.map((r) => (
            <li key={r.id} className="support-reply">
              <p className="support-reply__meta">
                Replied <time dateTime={r.created_at}>{formatWhen(r.created_at)}</time>
              </p>
              <p className="support-reply__body">{r.body}</p>
            </li>
          ))}
        </ol>
      )}
      <form
        className="support-admin__actions"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          void act('reply', event.currentTarget)
        }}
      >
        <div className={replyInvalid ? 'field field--invalid' : 'field'}>
          <label className="field__label" htmlFor={`${id}-reply`}>
            Reply to {row.name}
          </label>
          <textarea
            id={`${id}-reply`}
            name="reply"
            className="input support-form__message"
            rows={4}
            maxLength={MESSAGE_MAX}
            defaultValue=""
            aria-invalid={replyInvalid ? true : undefined}
          />
        </div>
        {formProblem && <ErrorBox>{formProblem.message}</ErrorBox>}
        {done && (
          <p role="status" className="field__hint">
            {done}
          </p>
        )}
        <div className="support-admin__buttons">
          <Button type="submit" size="sm" busy={busy === 'reply'}>
            Send reply
          </Button>
          {row.status !== 'resolved' && (
            <Button
              size="sm"
              variant="outline"
              busy={busy === 'resolve'}
              onClick={(event) => {
                const form = event.currentTarget.form
                if (form) void act('resolve', form).then(onChanged)
              }}
            >
              Mark resolved
            </Button>
          )}
        </div>
      </form>
    </Card>
  )
}
