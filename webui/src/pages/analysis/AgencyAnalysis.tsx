import { AnalysisPage } from '../../features/analysis'
import { claimText } from '../../lib/claims'
import { ChartIcon } from '../../components/icons/ChartIcon'
import { HandshakeIcon } from '../../components/icons/HandshakeIcon'
import { RocketIcon } from '../../components/icons/RocketIcon'

/** /agency-analysis: the agency growth analysis (spec §2, variant 4). */
export default function AgencyAnalysisPage() {
  return (
    <AnalysisPage
      source="agency-analysis"
      badge="For agencies"
      title="Agency Growth Analysis"
      lead="Enter a client's website and your agency e-mail to see its growth potential: client value, scalability and profitability, with the services to offer."
      urlLabel="Client Website URL"
      emailLabel="Your Agency Email"
      urlPlaceholder="clientwebsite.com"
      button="Analyze Growth Potential →"
      note="Free analysis. No credit card needed."
      mobileBar={{ note: 'Free analysis. No credit card needed.', spots: claimText('analysis_agency_spots') }}
      covers={{
        title: 'Turn a client website into recurring revenue',
        text: 'Client value, scalability and profitability, the revenue opportunities and a growth roadmap.',
        items: [
          { title: 'Revenue opportunities', text: 'Where the client loses money today, and the potential revenue increase.', Icon: ChartIcon },
          { title: 'Growth roadmap', text: 'What to do first, next and later, in an order a client understands.', Icon: RocketIcon },
          { title: 'Services to sell', text: 'Premium, growth and client services your agency can offer this client.', Icon: HandshakeIcon },
        ],
      }}
      closing={{
        title: 'Deliver more without hiring',
        text: 'We build for your clients under your name, live within 24 hours.',
        action: 'Scale Your Agency Now',
      }}
    />
  )
}
