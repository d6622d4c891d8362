import { AnalysisPage, PreScan } from '../../features/analysis'
import { claimText } from '../../lib/claims'
import { GaugeIcon } from '../../components/icons/GaugeIcon'
import { UsersIcon } from '../../components/icons/UsersIcon'
import { LightbulbIcon } from '../../components/icons/LightbulbIcon'

/** /business-analysis: the lead-style analysis (spec §2, variant 2). */
export default function BusinessAnalysisPage() {
  return (
    <AnalysisPage
      source="business-analysis"
      badge="Website report"
      title="We Already Reverse Engineered Your Website."
      lead="See what your website costs you in leads: its strategy, its speed on a phone and how ready it is for AI, from your real page."
      urlLabel="Website URL"
      emailLabel="Your Email"
      button="Show Me My Report →"
      note="2-minute analysis. No credit card needed."
      mobileBar={{ note: '2-minute analysis. No credit card needed.', spots: claimText('analysis_rebuild_spots') }}
      aside={<PreScan />}
      covers={{
        title: 'What your website costs you',
        text: 'The report shows where visitors drop off, how long they wait and what they never find.',
        items: [
          { title: 'Visitors lost', text: 'How many visitors a slow page loses before it has even appeared.', Icon: UsersIcon },
          { title: 'Load time', text: 'How long your page takes on a phone, against the industry standard of under 2 seconds.', Icon: GaugeIcon },
          { title: 'What to fix first', text: 'The critical issues on your page, worst first, with what to do about each.', Icon: LightbulbIcon },
        ],
      }}
      closing={{
        title: 'Ready for a website that wins leads?',
        text: 'We rebuild your website with a 99/100 PageSpeed score, live within 24 hours.',
        action: 'Fix My Website Now',
      }}
    />
  )
}
