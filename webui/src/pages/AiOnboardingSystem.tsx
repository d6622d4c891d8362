import { PageIntro } from '../components/layout/PageIntro'

export default function AiOnboardingSystemPage() {
  return (
    <PageIntro
      heading="AI Onboarding for Agencies"
      eyebrow="For agencies"
      text="Automate client onboarding: intake forms, welcome e-mails, access requests and kick-off scheduling, so every new client starts the same way."
    />
  )
}
