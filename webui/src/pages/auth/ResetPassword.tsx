import { PageIntro } from '../../components/layout/PageIntro'

export default function ResetPasswordPage() {
  return (
    <PageIntro
      heading="Choose a new password"
      text="Open this page from the link in your reset e-mail to set a new password for your account."
    />
  )
}
