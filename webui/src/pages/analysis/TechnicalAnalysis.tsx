import { PageIntro } from '../../components/layout/PageIntro'

export default function TechnicalAnalysisPage() {
  return (
    <PageIntro
      heading="Deep Technical Analysis of Your Stack"
      eyebrow="Technical analysis"
      text="Enter a website and your e-mail for an analysis of its architecture, performance and security."
    />
  )
}
