import { PageIntro } from '../../../components/layout/PageIntro'
import { Card } from '../../../components/ui/Card'
import { Container } from '../../../components/ui/Section'
import { ContractForm } from '../ContractForm'
import '../contracts.css'

/** /withdraw ("Withdraw from contract", linked in every footer): a consumer withdraws from an order within the withdrawal period, without an account. */
export default function WithdrawPage() {
  return (
    <>
      <PageIntro
        heading="Withdraw from contract"
        text="Withdraw from an order within the 14-day withdrawal period. No account or log-in needed."
      />
      <section className="contract-page">
        <Container size="md">
          <Card>
            <p className="contract-page__intro">
              Enter the e-mail address you ordered with and your order number or your website's domain. On the next step you
              see what happens and confirm. Read the <a href="/withdrawal">withdrawal information</a>.
            </p>
            <ContractForm kind="withdrawal" />
          </Card>
        </Container>
      </section>
    </>
  )
}
