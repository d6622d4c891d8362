import { ClockIcon } from '../components/icons/ClockIcon'
import { CodeIcon } from '../components/icons/CodeIcon'
import { FilterIcon } from '../components/icons/FilterIcon'
import { LayersIcon } from '../components/icons/LayersIcon'
import { LifebuoyIcon } from '../components/icons/LifebuoyIcon'
import { MailIcon } from '../components/icons/MailIcon'
import {
  IconCards,
  LeadPanel,
  Steps,
  type IconCardItem,
  type StepItem,
  FaqAccordion,
  type FaqItem,
  LandingHero,
  SectionHead,
  StickyMobileCta,
  startUrl,
} from '../features/content'
import { LeadForm } from '../features/leads'
import { PlanTiers } from '../features/catalogue'
import { CheckIcon } from '../components/icons/CheckIcon'
import { ButtonLink } from '../components/ui/Button'
import { Card } from '../components/ui/Card'
import { Section } from '../components/ui/Section'

const TYPE = 'ai'
const PLANS = ['starter-ai', 'pro-ai', 'full-stack-ai'] as const
const MAIN_CTA = startUrl(TYPE, 'pro-ai')

const useCases: IconCardItem[] = [
  { title: 'AI customer support', text: 'Answers the questions your customers ask every day, around the clock, and hands tricky ones to your team.', Icon: LifebuoyIcon },
  { title: 'Lead handling', text: 'New enquiries are answered, qualified and routed to the right person within minutes.', Icon: FilterIcon },
  { title: 'E-mail and follow-ups', text: 'Drafts replies, sends reminders and chases open quotes so nothing slips through.', Icon: MailIcon },
  { title: 'Workflows and hand-offs', text: 'Connects your forms, inbox, calendar and CRM so data moves without copy and paste.', Icon: LayersIcon },
]

const steps: StepItem[] = [
  { title: 'Free strategy call', text: 'We look at where your team loses the most time and pick the automations that pay off first.' },
  { title: 'Build and connect', text: 'We build the AI systems and connect them to the tools you already use.' },
  { title: 'Go live in 7 days', text: 'Your automations go live within 7 days, with a walkthrough for your team.' },
]

const faq: FaqItem[] = [
  {
    question: 'Do I need technical knowledge?',
    answer: 'No. We set everything up, connect it to your tools and walk your team through it. You only tell us how your business works today.',
  },
  {
    question: 'Which tools can you connect?',
    answer:
      'Common e-mail, calendar, CRM, helpdesk and spreadsheet tools, plus website forms. If a tool has an API or an export, we can usually connect it; we confirm this on the strategy call.',
  },
  {
    question: 'How long does the setup take?',
    answer: 'AI setups go live within 7 days of the kick-off. Larger Full Stack projects are planned with you on the strategy call.',
  },
  {
    question: 'What if the automation does not work for us?',
    answer: 'Every package comes with a 30-day money-back guarantee. If it does not do what we agreed, you get your money back.',
  },
  {
    question: 'What happens to our data?',
    answer:
      'Your data stays in your own tools wherever possible. We only process what an automation needs, and we work under European data-protection rules.',
  },
]

export default function AiAutomationPage() {
  return (
    <>
      <LandingHero
        badge="Done-for-you AI systems"
        title="Put AI to Work in Your Business"
        lead="We build AI systems that answer customers, handle leads and run the repetitive workflows your team does by hand, connected to the tools you already use."
        points={['Live within 7 days', '30-day money-back guarantee', 'No technical knowledge needed']}
        actions={
          <>
            <ButtonLink to={MAIN_CTA} size="lg">
              Get Started
            </ButtonLink>
            <ButtonLink to="#strategy-call" size="lg" variant="outline">
              Book a Free Strategy Call
            </ButtonLink>
          </>
        }
        aside={
          <Card className="offer-card" role="group" aria-label="What you get">
            <p className="offer-card__ribbon">Typical results</p>
            <ul className="offer-card__facts">
              <li>
                <ClockIcon size={18} />
                Hours of manual work taken off your team each week
              </li>
              <li>
                <MailIcon size={18} />
                Customers answered in minutes, not days
              </li>
              <li>
                <CodeIcon size={18} />
                Built and maintained for you, no code on your side
              </li>
              <li>
                <CheckIcon size={18} />
                Connected to your inbox, calendar and CRM
              </li>
            </ul>
          </Card>
        }
      />

      <Section aria-labelledby="use-cases-title">
        <SectionHead
          eyebrow="What we automate"
          title="AI where it saves you the most time"
          titleId="use-cases-title"
          text="We start with the tasks your team repeats every day."
        />
        <IconCards items={useCases} />
      </Section>

      <Section id="pricing" tone="muted" className="anchor-section" aria-labelledby="pricing-title">
        <SectionHead
          eyebrow="Packages"
          title="Choose your AI package"
          titleId="pricing-title"
          text="One-time setup fee, live within 7 days, with a 30-day money-back guarantee."
        />
        <PlanTiers type={TYPE} planKeys={PLANS} />
      </Section>

      <Section aria-labelledby="how-title">
        <SectionHead eyebrow="How it works" title="From call to working automation" titleId="how-title" />
        <Steps items={steps} />
      </Section>

      <Section id="strategy-call" tone="muted" className="anchor-section" aria-labelledby="strategy-call-title">
        <LeadPanel
          title="Book your free strategy call"
          titleId="strategy-call-title"
          text="Not sure which package fits? Leave your e-mail and we will set up a free 30-minute call to map where AI saves your team the most time."
          points={['A short review of your current workflows', 'The automations with the fastest payback', 'A clear quote, with no obligation']}
          card={
            <LeadForm
              source="ai-automation-strategy-call"
              submitLabel="Book My Free Strategy Call"
              note="We use your e-mail to schedule the call, and for the newsletter only if you tick its box."
            />
          }
        />
      </Section>

      <Section id="faq" aria-labelledby="faq-title">
        <SectionHead eyebrow="FAQ" title="Questions about AI automation" titleId="faq-title" />
        <FaqAccordion items={faq} />
      </Section>

      <StickyMobileCta to={MAIN_CTA} label="Get Started" note="Live in 7 days · 30-day money-back" />
    </>
  )
}
