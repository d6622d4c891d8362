import { PageIntro } from '../components/layout/PageIntro'

export default function AiAutomationPage() {
  return (
    <PageIntro
      heading="AI Automation for Your Business"
      eyebrow="AI automation"
      text="We set up AI systems that answer customers, qualify leads and take repetitive work off your team. Book a free strategy call to see what fits your business."
    />
  )
}
