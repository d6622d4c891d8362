import { PageIntro } from '../../components/layout/PageIntro'

export default function AnalyticsPage() {
  return (
    <PageIntro
      heading="Analytics"
      text="Speed figures for your websites appear here."
    />
  )
}
