import { PageIntro } from '../components/layout/PageIntro'

export default function AiLeadEnginePage() {
  return (
    <PageIntro
      heading="AI Lead Engine"
      eyebrow="Launch offer"
      text="An AI system that captures, qualifies and follows up on your leads, delivered within 72 hours with a 30-day money-back guarantee."
    />
  )
}
