import { PageIntro } from '../components/layout/PageIntro'

export default function LeadGenerationPage() {
  return (
    <PageIntro
      heading="Landing Page & Funnel Rebuild for Clinics"
      eyebrow="For clinics"
      text="We rebuild your clinic landing page and funnel within 24 hours so more visitors book a consultation, with a 30-day money-back guarantee."
    />
  )
}
