import { PageIntro } from '../../components/layout/PageIntro'

export default function SettingsPage() {
  return (
    <PageIntro
      heading="Settings"
      text="Change your e-mail and password, export your data or delete your account here."
    />
  )
}
