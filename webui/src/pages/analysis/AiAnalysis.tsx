import { AnalysisPage } from '../../features/analysis'
import { ChartIcon } from '../../components/icons/ChartIcon'
import { GaugeIcon } from '../../components/icons/GaugeIcon'
import { LightbulbIcon } from '../../components/icons/LightbulbIcon'

/** /ai-analysis: the general AI website analysis (spec §2, variant 1). */
export default function AiAnalysisPage() {
  return (
    <AnalysisPage
      source="ai-analysis"
      badge="AI website analysis"
      title="Reverse Engineer Any Website with AI"
      lead="Enter any website and your e-mail. We read the real page, measure its speed on a phone and turn what we find into its strategy, sales funnel, customer journey and AI opportunities."
      urlLabel="Website URL"
      emailLabel="Your Email"
      button="Analyze Website with AI"
      note="Instant analysis. No credit card required."
      covers={{
        title: 'Four scores and a plan you can act on',
        text: 'Speed, strategy, funnel and AI readiness, each explained, with the improvements that matter most.',
        items: [
          { title: 'Strategy and funnel', text: 'How the page speaks to visitors and leads them from the first look to an enquiry or a sale.', Icon: ChartIcon },
          { title: 'AI opportunities', text: 'Where AI customer support, AI SEO and personalisation would help this website most.', Icon: LightbulbIcon },
          { title: 'Speed on a phone', text: 'The mobile PageSpeed score, speed index and blocking time, measured while you wait.', Icon: GaugeIcon },
        ],
      }}
      closing={{
        title: 'Want these improvements done for you?',
        text: 'We build the website and the AI tools your analysis points to, live within 24 hours.',
        action: 'Get Started',
      }}
    />
  )
}
