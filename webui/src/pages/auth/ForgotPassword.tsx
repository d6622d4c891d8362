import { Link } from 'react-router-dom'
import { PageIntro } from '../../components/layout/PageIntro'

export default function ForgotPasswordPage() {
  return (
    <PageIntro
      heading="Reset your password"
      text="Enter the e-mail of your account and we'll send you a single-use link to choose a new password."
    >
      <p>
        Remembered it? <Link to="/login">Back to login</Link>
      </p>
    </PageIntro>
  )
}
