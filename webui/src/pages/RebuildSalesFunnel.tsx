import { PageIntro } from '../components/layout/PageIntro'

export default function RebuildSalesFunnelPage() {
  return (
    <PageIntro
      heading="Sales Funnel Rebuild in 48 Hours"
      eyebrow="Funnel rebuild"
      text="We rebuild your sales funnel within 48 hours to turn more visitors into buyers, with a 30-day money-back guarantee."
    />
  )
}
