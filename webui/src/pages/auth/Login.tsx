import { Link } from 'react-router-dom'
import { PageIntro } from '../../components/layout/PageIntro'

export default function LoginPage() {
  return (
    <PageIntro
      heading="Welcome back."
      text="Log in with your e-mail and password to open your dashboard."
    >
      <p>
        New here? <Link to="/signup">Create your account</Link>. <Link to="/forgot-password">Forgot your password?</Link>
      </p>
    </PageIntro>
  )
}
