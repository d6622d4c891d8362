import { useId, useState, type FormEvent } from 'react'
import { formValues, problemFromError, useHydrated, type FormProblem } from '../../lib/forms'
import {
  checkSupport,
  EMAIL_MAX,
  MESSAGE_MAX,
  NAME_MAX,
  sendSupport,
  SUBJECT_MAX,
  type SupportInput,
} from './support'
import { CheckIcon } from '../../components/icons/CheckIcon'
import { Button } from '../../components/ui/Button'
import { ErrorBox } from '../../components/ui/ErrorBox'
import { Field } from '../../components/ui/Field'

export interface SupportWebsite {
  id: number
  domain: string
}

export interface SupportFormProps {
  /** A visitor gives a name and an e-mail; a signed-in customer's come from the account. */
  visitor: boolean
  /** The customer's websites, offered in an optional select (none: no select). */
  websites?: readonly SupportWebsite[]
  /** Called once the request is stored, with the server's confirmation. */
  onSent?: (message: string) => void
}

/**
 * The support request form (`POST /api/support`): name and e-mail for visitors, an optional
 * website for customers, subject and message, a honeypot for bots. Every missing field is named
 * at once, in the server's words; after sending, the confirmation and "Send another request".
 */
export function SupportForm({ visitor, websites = [], onSent }: SupportFormProps) {
  const id = useId()
  const hydrated = useHydrated()
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<FormProblem | null>(null)
  const [sent, setSent] = useState<string | null>(null)
  const errorId = `${id}-error`

  const fieldError = (key: string) => problem?.fields[key] ?? null

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy) return
    const {
      website_id: chosenSite,
      company_website: trap,
      ...typed
    } = formValues(event.currentTarget, ['name', 'email', 'subject', 'message', 'website_id', 'company_website'])
    const found = checkSupport(typed, visitor)
    setProblem(found)
    if (found) return
    const body: SupportInput = {
      subject: typed.subject.trim(),
      message: typed.message.trim(),
      company_website: trap,
    }
    if (visitor) {
      body.name = typed.name.trim()
      body.email = typed.email.trim()
    } else if (chosenSite) {
      body.website_id = Number(chosenSite)
    }
    setBusy(true)
    try {
      const message = await sendSupport(body)
      setSent(message) // the form is gone; "Send another request" brings back an empty one
      onSent?.(message)
    } catch (err) {
      setProblem(problemFromError(err))
    } finally {
      setBusy(false)
    }
  }

  if (sent !== null) {
    return (
      <div className="support-form__done" role="status">
        <span className="support-form__done-icon" aria-hidden="true">
          <CheckIcon size={28} />
        </span>
        <p>{sent}</p>
        <Button variant="outline" size="sm" onClick={() => setSent(null)}>
          Send another request
        </Button>
      </div>
    )
  }

  return (
    <form className="support-form form-stack" onSubmit={onSubmit} noValidate aria-describedby={problem ? errorId : undefined}>
      {problem && <ErrorBox id={errorId}>{problem.message}</ErrorBox>}
      {visitor && (
        <>
          <Field
            name="name"
            label="Your Name"
            autoComplete="name"
            required
            maxLength={NAME_MAX}
            defaultValue=""
            error={fieldError('name')}
          />
          <Field
            name="email"
            type="email"
            label="Email Address"
            autoComplete="email"
            required
            maxLength={EMAIL_MAX}
            defaultValue=""
            error={fieldError('email')}
          />
        </>
      )}
      {!visitor && websites.length > 0 && (
        <div className={fieldError('website_id') ? 'field field--invalid' : 'field'}>
          <label className="field__label" htmlFor={`${id}-website`}>
            Website (optional)
          </label>
          <select id={`${id}-website`} className="input" name="website_id" defaultValue="">
            <option value="">No particular website</option>
            {websites.map((site) => (
              <option key={site.id} value={String(site.id)}>
                {site.domain}
              </option>
            ))}
          </select>
          {fieldError('website_id') && <p className="field__error">{fieldError('website_id')}</p>}
        </div>
      )}
      <Field
        name="subject"
        label="Subject"
        required
        maxLength={SUBJECT_MAX}
        defaultValue=""
        error={fieldError('subject')}
      />
      <div className={fieldError('message') ? 'field field--invalid' : 'field'}>
        <label className="field__label" htmlFor={`${id}-message`}>
          Message
          <span className="field__required" aria-hidden="true">
            {' '}*
          </span>
        </label>
        <textarea
          id={`${id}-message`}
          name="message"
          className="input support-form__message"
          rows={6}
          required
          maxLength={MESSAGE_MAX}
          defaultValue=""
          aria-invalid={fieldError('message') ? true : undefined}
          aria-describedby={fieldError('message') ? `${id}-message-error` : undefined}
        />
        {fieldError('message') && (
          <p id={`${id}-message-error`} className="field__error">
            {fieldError('message')}
          </p>
        )}
      </div>
      <div className="lead-form__trap" aria-hidden="true">
        <label htmlFor={`${id}-company-website`}>Company website (leave empty)</label>
        <input
          id={`${id}-company-website`}
          type="text"
          name="company_website"
          tabIndex={-1}
          autoComplete="off"
          defaultValue=""
          aria-hidden="true"
        />
      </div>
      <div>
        {/* Enabled once hydrated: a click before would post the prerendered form natively. */}
        <Button type="submit" busy={busy} disabled={!hydrated}>
          {busy ? 'Sending…' : 'Send request'}
        </Button>
      </div>
    </form>
  )
}
