import { PageIntro } from '../../components/layout/PageIntro'

export default function ContactPage() {
  return (
    <PageIntro
      heading="Contact"
      text="Write to us about a new project, your website or your account. We answer every message by e-mail."
    />
  )
}
