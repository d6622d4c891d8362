import { useId, useState, type FormEvent } from 'react'
import { CheckIcon } from '../components/icons/CheckIcon'
import { PageIntro } from '../components/layout/PageIntro'
import { Button, ButtonLink } from '../components/ui/Button'
import { Card } from '../components/ui/Card'
import { ErrorBox } from '../components/ui/ErrorBox'
import { Field } from '../components/ui/Field'
import { api } from '../lib/api-client'

export const MSG_FILL_ALL = 'Please fill in all fields'
export const MSG_FAILED = 'Something went wrong. Please try again or contact us directly.'

/** /free-preview: the real-estate rebuild's free preview request (stored as a lead). */
export default function FreePreviewPage() {
  const id = useId()
  const [values, setValues] = useState({ name: '', email: '', domain: '' })
  const [honeypot, setHoneypot] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState(false)
  const errorId = `${id}-error`

  const set = (key: keyof typeof values) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [key]: event.target.value }))

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy) return
    setError(null)
    if (!values.name.trim() || !values.email.trim() || !values.domain.trim()) {
      setError(MSG_FILL_ALL) // no call is made
      return
    }
    setBusy(true)
    try {
      await api.post('/api/leads', {
        source: 'free-preview',
        name: values.name.trim(),
        email: values.email.trim(),
        domain: values.domain.trim(),
        company_website: honeypot,
      })
      setDone(true)
    } catch (err) {
      console.warn('Free preview request failed', err)
      setError(MSG_FAILED)
    } finally {
      setBusy(false)
    }
  }

  if (done) {
    return (
      <section className="container container--sm free-preview" aria-labelledby={`${id}-done`}>
        <Card className="free-preview__done">
          <span className="free-preview__done-icon" aria-hidden="true">
            <CheckIcon size={32} />
          </span>
          <h1 id={`${id}-done`}>Request Received!</h1>
          <p>Here is what happens next:</p>
          <ol className="free-preview__steps">
            <li>We analyse {values.domain.trim()} within 2 hours.</li>
            <li>We send your free demo to {values.email.trim()}.</li>
            <li>You see exactly how your new site will be improved, before you pay anything.</li>
          </ol>
          <ButtonLink to="/" size="lg">
            Back to Home
          </ButtonLink>
        </Card>
      </section>
    )
  }

  return (
    <>
      <PageIntro
        heading="Get Your Free Website Preview"
        eyebrow="Free preview"
        text="Tell us your name, e-mail and website. We analyse your site and send a preview of the improved version within 2 hours."
      />
      <section className="container container--sm free-preview">
        <Card>
          <form className="free-preview__form" onSubmit={onSubmit} noValidate aria-describedby={error ? errorId : undefined}>
            {error && <ErrorBox id={errorId}>{error}</ErrorBox>}
            <Field label="Your Name" name="name" autoComplete="name" required value={values.name} onChange={set('name')} />
            <Field label="Email Address" name="email" type="email" autoComplete="email" required value={values.email} onChange={set('email')} />
            <Field
              label="Website URL"
              name="domain"
              inputMode="url"
              autoComplete="url"
              required
              hint="Enter the domain without http://"
              placeholder="yourhomes.com"
              value={values.domain}
              onChange={set('domain')}
            />
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
              />
            </div>
            <Button type="submit" size="lg" block busy={busy}>
              Get My Free Preview
            </Button>
            <p className="free-preview__note">Free, no credit card. Preview within 2 hours.</p>
          </form>
        </Card>
      </section>
    </>
  )
}
