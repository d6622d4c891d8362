import { AnalysisPage } from '../../features/analysis'
import { claimText } from '../../lib/claims'
import { GaugeIcon } from '../../components/icons/GaugeIcon'
import { LayersIcon } from '../../components/icons/LayersIcon'
import { ShieldIcon } from '../../components/icons/ShieldIcon'

/** /technical-analysis: the technical analysis (spec §2, variant 3). */
export default function TechnicalAnalysisPage() {
  return (
    <AnalysisPage
      source="technical-analysis"
      badge="Technical analysis"
      title="Deep Technical Analysis of Your Stack"
      lead="Enter a website and your e-mail for an analysis of its architecture, performance and security, read from the real page and measured on a phone."
      urlLabel="Website URL"
      emailLabel="Your Email"
      button="Run Technical Analysis →"
      note="Free analysis. No credit card needed."
      mobileBar={{ note: 'Free analysis. No credit card needed.', spots: claimText('analysis_rebuild_spots') }}
      covers={{
        title: 'Architecture, performance, security',
        text: 'Four scores and the critical issues, with the figures behind them.',
        items: [
          { title: 'Architecture', text: 'The layers of the stack: markup, scripts, third-party tools, structured data.', Icon: LayersIcon },
          { title: 'Performance', text: 'Speed index and total blocking time on a phone, against a response under 0.2 s.', Icon: GaugeIcon },
          { title: 'Security', text: 'Transport and headers, third-party scripts, and how forms handle data.', Icon: ShieldIcon },
        ],
      }}
      closing={{
        title: 'Let us fix the stack for you',
        text: 'We rebuild your site on a fast, secure stack with a 99/100 PageSpeed score, live within 24 hours.',
        action: 'Fix Technical Issues Now',
      }}
    />
  )
}
