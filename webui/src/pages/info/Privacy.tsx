import { PageIntro } from '../../components/layout/PageIntro'

export default function PrivacyPage() {
  return (
    <PageIntro
      heading="Privacy Policy"
      text="How we collect, use and protect your personal data, and how to exercise your rights under the GDPR."
    />
  )
}
