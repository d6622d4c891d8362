import { PageIntro } from '../../components/layout/PageIntro'

export default function BusinessAnalysisPage() {
  return (
    <PageIntro
      heading="We Already Reverse Engineered Your Website."
      eyebrow="Website report"
      text="Enter your website and e-mail to see what your site costs you in leads: strategy, speed and AI readiness."
    />
  )
}
