import { PageIntro } from '../../components/layout/PageIntro'

export default function AiAnalysisPage() {
  return (
    <PageIntro
      heading="Reverse Engineer Any Website with AI"
      eyebrow="AI website analysis"
      text="Enter a website and your e-mail to get its strategy, sales funnel, customer journey, AI opportunities and speed score."
    />
  )
}
