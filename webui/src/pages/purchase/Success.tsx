import { Link } from 'react-router-dom'
import { PageIntro } from '../../components/layout/PageIntro'
import { ButtonLink } from '../../components/ui/Button'

export default function SuccessPage() {
  return (
    <PageIntro
      heading="Payment Successful."
      text="Our team starts on your website immediately. An e-mail with the next steps is on its way to you."
    >
      <p className="actions-row">
        <ButtonLink to="/dashboard">Go to Dashboard</ButtonLink>
        <Link to="/support">Contact support</Link>
      </p>
    </PageIntro>
  )
}
