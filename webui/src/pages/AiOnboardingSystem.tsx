import { CalendarIcon } from '../components/icons/CalendarIcon'
import { CheckIcon } from '../components/icons/CheckIcon'
import { FormIcon } from '../components/icons/FormIcon'
import { LockIcon } from '../components/icons/LockIcon'
import { MailIcon } from '../components/icons/MailIcon'
import {
  IconCards,
  LeadPanel,
  type IconCardItem,
  FaqAccordion,
  type FaqItem,
  LandingHero,
  SectionHead,
  OnboardingCalculator,
  StickyMobileCta,
  startUrl,
} from '../features/content'
import { EMAIL_FIELD, LeadForm } from '../features/leads'
import { PlanTiers } from '../features/catalogue'
import { ButtonLink } from '../components/ui/Button'
import { Card } from '../components/ui/Card'
import { Section } from '../components/ui/Section'

const TYPE = 'ai-onboarding'
const PLANS = ['ai-onboarding-essential', 'ai-onboarding-pro', 'ai-onboarding-agency'] as const
const MAIN_CTA = startUrl(TYPE, 'ai-onboarding-pro')

const automations: IconCardItem[] = [
  { title: 'Intake forms', text: 'New clients fill in one smart form; answers land in your project tool, not in an e-mail thread.', Icon: FormIcon },
  { title: 'Welcome e-mails', text: 'A warm, on-brand welcome sequence goes out the minute the contract is signed.', Icon: MailIcon },
  { title: 'Access requests', text: 'Logins for ads accounts, analytics and hosting are requested and chased automatically.', Icon: LockIcon },
  { title: 'Kick-off scheduling', text: 'Clients book their kick-off call themselves at a time that suits your team.', Icon: CalendarIcon },
]

const faq: FaqItem[] = [
  {
    question: 'Which tools does the onboarding automation connect to?',
    answer: 'Your e-mail, calendar, form tool, CRM and project-management tool. We confirm the exact setup in the free audit.',
  },
  {
    question: 'How long until it runs?',
    answer: 'Essential and Pro are set up within 7 days of the kick-off. On the Agency plan we keep improving your workflows every month.',
  },
  {
    question: 'Will it feel impersonal to our clients?',
    answer: 'No. Every message is written in your voice and signed by your team. Clients get faster answers, and your team keeps the personal calls.',
  },
  {
    question: 'What does the free audit include?',
    answer: 'We map your current onboarding steps, show which ones can be automated and estimate the hours you get back, with no obligation to buy.',
  },
]

export default function AiOnboardingSystemPage() {
  return (
    <>
      <LandingHero
        badge="AI onboarding for agencies"
        title="Onboard Every New Client on Autopilot"
        lead="Forms, welcome e-mails, access requests and kick-off scheduling, automated for your agency, so new clients feel looked after from the first minute and your team stops chasing logins."
        points={['Set up in 7 days', 'Works with your existing tools', 'Free onboarding audit']}
        actions={
          <>
            <ButtonLink to={MAIN_CTA} size="lg">
              Automate My Onboarding
            </ButtonLink>
            <ButtonLink to="#calculator" size="lg" variant="outline">
              Calculate Your Savings
            </ButtonLink>
          </>
        }
        aside={
          <Card className="offer-card" role="group" aria-label="A new client's first day">
            <p className="offer-card__ribbon">A new client’s first hour</p>
            <ul className="offer-card__facts">
              <li>
                <MailIcon size={18} />
                0:01 Welcome e-mail sent
              </li>
              <li>
                <FormIcon size={18} />
                0:05 Intake form completed
              </li>
              <li>
                <LockIcon size={18} />
                0:20 Access to ads and analytics granted
              </li>
              <li>
                <CalendarIcon size={18} />
                0:45 Kick-off call booked
              </li>
              <li>
                <CheckIcon size={18} />
                Your team did not lift a finger
              </li>
            </ul>
          </Card>
        }
      />

      <Section aria-labelledby="automations-title">
        <SectionHead eyebrow="What we automate" title="The busywork of onboarding, handled" titleId="automations-title" />
        <IconCards items={automations} />
      </Section>

      <Section id="calculator" tone="muted" className="anchor-section" aria-labelledby="calculator-title">
        <SectionHead
          eyebrow="Cost calculator"
          title="What manual onboarding costs you"
          titleId="calculator-title"
          text="Enter your own figures to see the hours and money your team spends on onboarding every month."
        />
        <Card className="calc-card">
          <OnboardingCalculator />
        </Card>
      </Section>

      <Section id="pricing" className="anchor-section" aria-labelledby="pricing-title">
        <SectionHead eyebrow="Packages" title="Choose your onboarding package" titleId="pricing-title" />
        <PlanTiers type={TYPE} planKeys={PLANS} />
      </Section>

      <Section id="audit" tone="muted" className="anchor-section" aria-labelledby="audit-title">
        <LeadPanel
          title="Get a free onboarding audit"
          titleId="audit-title"
          text="Leave your e-mail and we will walk through your current onboarding with you and show where automation saves the most time."
          points={['A map of your onboarding steps', 'The automations with the biggest time savings', 'An estimate of the hours you get back']}
          card={
            <LeadForm
              source="ai-onboarding-audit"
              submitLabel="Get My Free Audit"
              fields={[{ ...EMAIL_FIELD, label: 'Agency Email Address' }]}
              note="No obligation. We use your e-mail to schedule the audit, and for the newsletter only if you tick its box."
            />
          }
        />
      </Section>

      <Section id="faq" aria-labelledby="faq-title">
        <SectionHead eyebrow="FAQ" title="Questions from agencies" titleId="faq-title" />
        <FaqAccordion items={faq} />
      </Section>

      <StickyMobileCta to={MAIN_CTA} label="Automate My Onboarding" note="Set up in 7 days" />
    </>
  )
}
