import { useId, useState, type FormEvent } from 'react'
import { CheckIcon } from '../icons/CheckIcon'
import { Button } from '../ui/Button'
import { ErrorBox } from '../ui/ErrorBox'
import { Field } from '../ui/Field'
import { api, errorMessage } from '../../lib/api-client'

export interface LeadFormProps {
  /** Lead source stored with the request, e.g. `ai-onboarding-audit`. */
  source: string
  /** Thank-you text that replaces the form after a successful submit. */
  confirmation: string
  submitLabel: string
  /** Also ask for the visitor's name (optional field). */
  withName?: boolean
  /** Also ask for the website domain (optional field). */
  withDomain?: boolean
  /** Example shown in the empty website field. */
  domainPlaceholder?: string
  emailLabel?: string
  /** Small line under the button. */
  note?: string
}

interface LeadBody {
  source: string
  email: string
  name?: string
  domain?: string
  company_website: string
}

/** E-mail capture form posting to `POST /api/leads`; replaced by the confirmation on success. */
export function LeadForm({
  source,
  confirmation,
  submitLabel,
  withName = false,
  withDomain = false,
  domainPlaceholder = 'yourpractice.com',
  emailLabel = 'Email Address',
  note,
}: LeadFormProps) {
  const id = useId()
  const [email, setEmail] = useState('')
  const [name, setName] = useState('')
  const [domain, setDomain] = useState('')
  const [honeypot, setHoneypot] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState(false)
  const errorId = `${id}-error`

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy) return
    setError(null)
    setBusy(true)
    const body: LeadBody = { source, email: email.trim(), company_website: honeypot }
    if (withName && name.trim()) body.name = name.trim()
    if (withDomain && domain.trim()) body.domain = domain.trim()
    try {
      await api.post<{ message: string }>('/api/leads', body)
      setDone(true)
    } catch (err) {
      setError(errorMessage(err))
    } finally {
      setBusy(false)
    }
  }

  if (done) {
    return (
      <div className="lead-form__done" role="status">
        <span className="lead-form__done-icon" aria-hidden="true">
          <CheckIcon size={28} />
        </span>
        <p>{confirmation}</p>
      </div>
    )
  }

  return (
    <form className="lead-form" onSubmit={onSubmit} aria-describedby={error ? errorId : undefined}>
      {error && <ErrorBox id={errorId}>{error}</ErrorBox>}
      {withName && <Field label="Your Name" name="name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />}
      <Field
        label={emailLabel}
        name="email"
        type="email"
        required
        autoComplete="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        invalid={Boolean(error)}
      />
      {withDomain && (
        <Field
          label="Website URL"
          name="domain"
          inputMode="url"
          autoComplete="url"
          placeholder={domainPlaceholder}
          value={domain}
          onChange={(e) => setDomain(e.target.value)}
        />
      )}
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
      <Button type="submit" size="lg" block busy={busy}>
        {busy ? 'Sending…' : submitLabel}
      </Button>
      {note && <p className="lead-form__note">{note}</p>}
    </form>
  )
}
