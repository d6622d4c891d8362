import { useId, useState, type FormEvent } from 'react'
import { problemFromError, readFields, useAdoptFilledFields, type FormProblem } from '../../lib/forms'
import {
  checkSupport,
  EMAIL_MAX,
  MESSAGE_MAX,
  NAME_MAX,
  sendSupport,
  SUBJECT_MAX,
  type SupportInput,
  type SupportValues,
} from '../../lib/support'
import { CheckIcon } from '../icons/CheckIcon'
import { Button } from '../ui/Button'
import { ErrorBox } from '../ui/ErrorBox'
import { Field } from '../ui/Field'

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

const EMPTY: SupportValues = { name: '', email: '', subject: '', message: '' }

/**
 * The support request form (`POST /api/support`): name and e-mail for visitors, an optional
 * website for customers, subject and message, a honeypot for bots. Every missing field is named
 * at once, in the server's words; after sending, the confirmation and "Send another request".
 */
export function SupportForm({ visitor, websites = [], onSent }: SupportFormProps) {
  const id = useId()
  const [values, setValues] = useState<SupportValues>(EMPTY)
  const [website, setWebsite] = useState('')
  const [honeypot, setHoneypot] = useState('')
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<FormProblem | null>(null)
  const [sent, setSent] = useState<string | null>(null)
  const formRef = useAdoptFilledFields(
    { ...values, website_id: website, company_website: honeypot },
    ({ website_id: site, company_website: trap, ...typed }) => {
      setValues(typed)
      setWebsite(site)
      setHoneypot(trap)
    },
  )
  const errorId = `${id}-error`

  const set = (key: keyof SupportValues) => (value: string) => setValues((current) => ({ ...current, [key]: value }))
  const fieldError = (key: string) => problem?.fieldMessages?.[key] ?? null

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy) return
    const {
      website_id: chosenSite,
      company_website: trap,
      ...typed
    } = readFields(event.currentTarget, { ...values, website_id: website, company_website: honeypot })
    setValues(typed)
    setWebsite(chosenSite)
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
      setSent(message)
      setValues(EMPTY)
      setWebsite('')
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
    <form ref={formRef} className="support-form form-stack" onSubmit={onSubmit} noValidate aria-describedby={problem ? errorId : undefined}>
      {problem && <ErrorBox id={errorId}>{problem.message}</ErrorBox>}
      {visitor && (
        <>
          <Field
            name="name"
            label="Your Name"
            autoComplete="name"
            required
            maxLength={NAME_MAX}
            value={values.name}
            error={fieldError('name')}
            onChange={(e) => set('name')(e.target.value)}
          />
          <Field
            name="email"
            type="email"
            label="Email Address"
            autoComplete="email"
            required
            maxLength={EMAIL_MAX}
            value={values.email}
            error={fieldError('email')}
            onChange={(e) => set('email')(e.target.value)}
          />
        </>
      )}
      {!visitor && websites.length > 0 && (
        <div className={fieldError('website_id') ? 'field field--invalid' : 'field'}>
          <label className="field__label" htmlFor={`${id}-website`}>
            Website (optional)
          </label>
          <select id={`${id}-website`} className="input" name="website_id" value={website} onChange={(e) => setWebsite(e.target.value)}>
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
        value={values.subject}
        error={fieldError('subject')}
        onChange={(e) => set('subject')(e.target.value)}
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
          value={values.message}
          aria-invalid={fieldError('message') ? true : undefined}
          aria-describedby={fieldError('message') ? `${id}-message-error` : undefined}
          onChange={(e) => set('message')(e.target.value)}
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
          value={honeypot}
          onChange={(e) => setHoneypot(e.target.value)}
          aria-hidden="true"
        />
      </div>
      <div>
        <Button type="submit" busy={busy}>
          {busy ? 'Sending…' : 'Send request'}
        </Button>
      </div>
    </form>
  )
}
