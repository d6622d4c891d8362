import { PageIntro } from '../../components/layout/PageIntro'

export default function ProfilePage() {
  return (
    <PageIntro
      heading="Profile"
      text="Your name and avatar appear here."
    />
  )
}
