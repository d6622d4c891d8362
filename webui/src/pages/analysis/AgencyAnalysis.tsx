import { PageIntro } from '../../components/layout/PageIntro'

export default function AgencyAnalysisPage() {
  return (
    <PageIntro
      heading="Agency Growth Analysis"
      eyebrow="For agencies"
      text="Enter a client's website and your agency e-mail to see its growth potential: client value, scalability and profitability."
    />
  )
}
