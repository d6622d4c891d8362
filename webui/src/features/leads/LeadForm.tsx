import { useId, useState, type FormEvent } from 'react'
import { CheckIcon } from '../../components/icons/CheckIcon'
import { Button } from '../../components/ui/Button'
import { ErrorBox } from '../../components/ui/ErrorBox'
import { Field } from '../../components/ui/Field'
import { NEWSLETTER_NAME, NewsletterOptIn, ticked } from '../../components/ui/NewsletterOptIn'
import { api, type ResponseBody } from '../../lib/api-client'
import { formValues, MSG_FILL_ALL, problem as formProblem, problemFromError, type FormProblem } from '../../lib/forms'

/** The values a lead form can ask for; each is also the input's `name` and its key in the request. */
export type LeadFieldKey = 'name' | 'email' | 'domain'

/** One input of a lead form: the standard ones below, or one of them with its own label or placeholder. */
export interface LeadField {
  name: LeadFieldKey
  label: string
  autoComplete: string
  type?: 'email'
  inputMode?: 'url'
  placeholder?: string
  hint?: string
}

export const NAME_FIELD: LeadField = { name: 'name', label: 'Your Name', autoComplete: 'name' }
export const EMAIL_FIELD: LeadField = { name: 'email', label: 'Email Address', type: 'email', autoComplete: 'email' }
export const DOMAIN_FIELD: LeadField = { name: 'domain', label: 'Website URL', inputMode: 'url', autoComplete: 'url' }

/** What became of a ticked newsletter box (null when it was not ticked). */
export type NewsletterOutcome = ResponseBody<'/api/leads', 'post'>['newsletter']

/** What the visitor sent (trimmed) and the confirmation the server answered with. */
export interface LeadSent {
  message: string
  values: Readonly<Record<LeadFieldKey, string>>
  /** The newsletter box's outcome; null when it was not ticked. */
  newsletter: NewsletterOutcome
}

export interface LeadFormProps {
  /** Lead source stored with the request, e.g. `ai-onboarding-audit`. */
  source: string
  submitLabel: string
  /** The inputs, in order; the e-mail belongs in every form (default: [EMAIL_FIELD]). */
  fields?: readonly LeadField[]
  /**
   * Every field must be filled: the form says 'Please fill in all fields' without making a
   * call, and the browser's own checks are off. Otherwise only the e-mail is required, the
   * browser checks it, and an error from the server marks it invalid.
   */
  requireAll?: boolean
  /** Button text while sending; `null` keeps the submit label. */
  busyLabel?: string | null
  /** Shown instead of the server's error message when the request fails (the error is logged). */
  failureMessage?: string
  /** Small line under the button. */
  note?: string
  className?: string
  noteClassName?: string
  /**
   * Called once the lead is stored, for a page that replaces the form with a confirmation of
   * its own; otherwise the form shows the server's confirmation message in its place.
   */
  onSent?: (sent: LeadSent) => void
}

const EMAIL_ONLY: readonly LeadField[] = [EMAIL_FIELD]

/** The newsletter's outcome under a confirmation: 'subscribed' only when the server said so. */
export function NewsletterLine({ outcome }: { outcome: NewsletterOutcome | undefined }) {
  if (!outcome) return null
  return <p className={outcome.subscribed ? 'lead-form__newsletter' : 'lead-form__newsletter lead-form__newsletter--failed'}>{outcome.message}</p>
}

/**
 * The site's lead-capture form, posting to `POST /api/leads`: the fields it is given, the
 * unticked newsletter box, a honeypot for bots, busy and failure states, and on success the
 * confirmation the server sends (the spec's wording lives in the server's list of forms, not
 * here) and, when the box was ticked, what became of the subscription.
 */
export function LeadForm({
  source,
  submitLabel,
  fields = EMAIL_ONLY,
  requireAll = false,
  busyLabel = 'Sending…',
  failureMessage,
  note,
  className = 'lead-form',
  noteClassName = 'lead-form__note',
  onSent,
}: LeadFormProps) {
  const id = useId()
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<FormProblem | null>(null)
  const [confirmation, setConfirmation] = useState<{ message: string; newsletter: NewsletterOutcome } | null>(null)
  const errorId = `${id}-error`

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy) return
    setProblem(null)
    const typed = formValues(event.currentTarget, ['name', 'email', 'domain', 'company_website', NEWSLETTER_NAME])
    const trap = typed.company_website
    const sent = { name: typed.name.trim(), email: typed.email.trim(), domain: typed.domain.trim() }
    const missing = fields.filter((field) => !sent[field.name]).map((field) => field.name)
    if (requireAll && missing.length > 0) {
      setProblem(formProblem(MSG_FILL_ALL, missing)) // no call is made
      return
    }
    setBusy(true)
    const body: Partial<Record<LeadFieldKey, string>> & { source: string; company_website: string; newsletter: boolean } = {
      source,
      email: sent.email,
      company_website: trap,
      newsletter: ticked(typed.newsletter),
    }
    for (const { name } of fields) if (sent[name]) body[name] = sent[name]
    try {
      const { message, newsletter = null } = await api.post('/api/leads', body)
      setConfirmation({ message, newsletter })
      onSent?.({ message, values: sent, newsletter })
    } catch (err) {
      if (failureMessage) console.warn(`Lead request failed (${source})`, err)
      const found = problemFromError(err)
      setProblem(failureMessage ? { ...found, message: failureMessage } : found)
    } finally {
      setBusy(false)
    }
  }

  if (confirmation !== null) {
    return (
      <div className="lead-form__done" role="status">
        <span className="lead-form__done-icon" aria-hidden="true">
          <CheckIcon size={28} />
        </span>
        <p>{confirmation.message}</p>
        <NewsletterLine outcome={confirmation.newsletter} />
      </div>
    )
  }

  return (
    <form className={className} onSubmit={onSubmit} noValidate={requireAll} aria-describedby={problem ? errorId : undefined}>
      {problem && <ErrorBox id={errorId}>{problem.message}</ErrorBox>}
      {fields.map((field) => (
        <Field
          key={field.name}
          {...field}
          required={requireAll || field.name === 'email'}
          defaultValue=""
          invalid={field.name === 'email' && !requireAll && problem !== null}
        />
      ))}
      <NewsletterOptIn />
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
      <Button type="submit" size="lg" block busy={busy}>
        {busy && busyLabel !== null ? busyLabel : submitLabel}
      </Button>
      {note && <p className={noteClassName}>{note}</p>}
    </form>
  )
}
