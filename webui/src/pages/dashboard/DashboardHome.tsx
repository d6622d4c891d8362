import { PageIntro } from '../../components/layout/PageIntro'

export default function DashboardHomePage() {
  return (
    <PageIntro
      heading="Dashboard"
      text="Your subscription and your websites appear here."
    />
  )
}
