import { PageIntro } from '../../../components/layout/PageIntro'
import { Card } from '../../../components/ui/Card'
import { Container } from '../../../components/ui/Section'
import { ContractForm } from '../ContractForm'
import '../contracts.css'

/** /cancel ("Cancel contracts here", linked in every footer): a subscription is cancelled at the end of its period, without an account. */
export default function CancelPage() {
  return (
    <>
      <PageIntro
        heading="Cancel contracts here"
        text="Cancel a subscription at the end of its current billing period. No account or log-in needed."
      />
      <section className="contract-page">
        <Container size="md">
          <Card>
            <p className="contract-page__intro">
              Enter the e-mail address you ordered with and your order number or your website's domain. On the next step you
              see when your subscription ends and confirm. We e-mail you a confirmation at once.
            </p>
            <ContractForm kind="cancellation" />
          </Card>
        </Container>
      </section>
    </>
  )
}
