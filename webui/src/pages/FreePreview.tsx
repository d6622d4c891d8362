import { useId, useState } from 'react'
import { CheckIcon } from '../components/icons/CheckIcon'
import { PageIntro } from '../components/layout/PageIntro'
import { DOMAIN_FIELD, EMAIL_FIELD, LeadForm, NAME_FIELD, NewsletterLine, type LeadField, type LeadSent } from '../features/leads'
import { ButtonLink } from '../components/ui/Button'
import { Card } from '../components/ui/Card'

export const MSG_FAILED = 'Something went wrong. Please try again or contact us directly.'

const FIELDS: readonly LeadField[] = [
  NAME_FIELD,
  EMAIL_FIELD,
  { ...DOMAIN_FIELD, hint: 'Enter the domain without http://', placeholder: 'yourhomes.com' },
]

/** /free-preview: the real-estate rebuild's free preview request (stored as a lead). */
export default function FreePreviewPage() {
  const id = useId()
  const [sent, setSent] = useState<LeadSent | null>(null)

  if (sent) {
    return (
      <section className="container container--sm free-preview" aria-labelledby={`${id}-done`}>
        <Card className="free-preview__done">
          <span className="free-preview__done-icon" aria-hidden="true">
            <CheckIcon size={32} />
          </span>
          <h1 id={`${id}-done`}>{sent.message}</h1>
          <p>Here is what happens next:</p>
          <ol className="free-preview__steps">
            <li>We analyse {sent.values.domain} within 2 hours.</li>
            <li>We send your free demo to {sent.values.email}.</li>
            <li>You see exactly how your new site will be improved, before you pay anything.</li>
          </ol>
          <NewsletterLine outcome={sent.newsletter} />
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
          <LeadForm
            source="free-preview"
            fields={FIELDS}
            requireAll
            submitLabel="Get My Free Preview"
            busyLabel={null}
            failureMessage={MSG_FAILED}
            note="Free, no credit card. Preview within 2 hours."
            className="free-preview__form"
            noteClassName="free-preview__note"
            onSent={setSent}
          />
        </Card>
      </section>
    </>
  )
}
