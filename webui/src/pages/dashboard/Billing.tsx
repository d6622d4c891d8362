import { PageIntro } from '../../components/layout/PageIntro'

export default function BillingPage() {
  return (
    <PageIntro
      heading="Billing"
      text="Your plan, payment card, next billing date and orders appear here."
    />
  )
}
