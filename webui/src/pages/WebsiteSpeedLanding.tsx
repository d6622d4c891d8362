import { PageIntro } from '../components/layout/PageIntro'

export default function WebsiteSpeedLandingPage() {
  return (
    <PageIntro
      heading="Is Your Slow Website Costing You Clients?"
      eyebrow="Website rebuild"
      text="We rebuild slow websites into fast ones with a 99/100 PageSpeed score, live within 24 hours and hosting included."
    />
  )
}
