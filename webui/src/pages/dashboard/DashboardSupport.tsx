import { PageIntro } from '../../components/layout/PageIntro'

export default function DashboardSupportPage() {
  return (
    <PageIntro
      heading="Support"
      text="Send us a support request and follow your past requests here."
    />
  )
}
