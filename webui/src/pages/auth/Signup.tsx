import { Link } from 'react-router-dom'
import { PageIntro } from '../../components/layout/PageIntro'

export default function SignupPage() {
  return (
    <PageIntro
      heading="Create your account."
      text="Sign up with your name, e-mail and a password to order services and follow your websites in the dashboard."
    >
      <p>
        Already have an account? <Link to="/login">Log in</Link>. By signing up you accept our <Link to="/terms">Terms</Link> and{' '}
        <Link to="/privacy">Privacy Policy</Link>.
      </p>
    </PageIntro>
  )
}
