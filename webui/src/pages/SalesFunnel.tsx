import { PageIntro } from '../components/layout/PageIntro'

export default function SalesFunnelPage() {
  return (
    <PageIntro
      heading="Done-For-You Sales Funnel in 7 Days"
      eyebrow="Sales funnel"
      text="We plan, write and build your complete sales funnel within 7 days of your questionnaire. Book a free 30-minute consultation to start."
    />
  )
}
