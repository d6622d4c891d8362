import { ArrowRightIcon } from '../components/icons/ArrowRightIcon'
import { CheckIcon } from '../components/icons/CheckIcon'
import { ClockIcon } from '../components/icons/ClockIcon'
import { FilterIcon } from '../components/icons/FilterIcon'
import { FormIcon } from '../components/icons/FormIcon'
import { LayersIcon } from '../components/icons/LayersIcon'
import { MailIcon } from '../components/icons/MailIcon'
import { ShieldIcon } from '../components/icons/ShieldIcon'
import { UsersIcon } from '../components/icons/UsersIcon'
import {
  Claim,
  ClosingCta,
  Guarantee,
  IconCards,
  OfferCard as Offer,
  Steps,
  type Fact,
  type IconCardItem,
  type StepItem,
  FaqAccordion,
  type FaqItem,
  LandingHero,
  SectionHead,
  StickyMobileCta,
  startUrl,
} from '../features/content'
import { OfferPrice } from '../features/catalogue'
import { Badge } from '../components/ui/Badge'
import { ButtonLink } from '../components/ui/Button'
import { Section } from '../components/ui/Section'

const CTA = startUrl('ai', 'ai-lead-engine')

const capabilities: IconCardItem[] = [
  { title: 'Capture', text: 'Every enquiry from your website forms, chat and ads lands in one place, day and night, with nothing lost in an inbox.', Icon: FormIcon },
  { title: 'Qualify', text: 'AI asks the questions you would ask (budget, timing, need) and scores each lead so you know who to call first.', Icon: FilterIcon },
  { title: 'Follow up', text: 'Leads get a personal reply within minutes and polite follow-ups until they book or say no.', Icon: MailIcon },
  { title: 'CRM hand-off', text: 'Qualified leads arrive in your CRM or inbox with the full conversation and a summary, ready to close.', Icon: UsersIcon },
]

const steps: StepItem[] = [
  { title: 'Claim your spot', text: 'Order the lead engine at the launch price at checkout. It takes about two minutes.' },
  { title: 'Short kick-off', text: 'Tell us your offer, your ideal customer and where leads come from today.' },
  { title: 'We build and connect', text: 'We set up capture, qualification questions, follow-up messages and your CRM hand-off.' },
  { title: 'Live in 72h', text: 'Your lead engine goes live within 72 hours and starts working on the next enquiry.' },
]

const faq: FaqItem[] = [
  {
    question: 'Which tools does the AI Lead Engine work with?',
    answer:
      'It connects to the website forms, e-mail inbox and CRM you already use. If you have no CRM yet, qualified leads are sent to your inbox with a short summary, so you can start without new software.',
  },
  {
    question: 'How do the 72 hours work?',
    answer:
      'The 72 hours start after the short kick-off, once we know your offer and where your leads come from. We build, test and switch the engine on within that time and show you how it works.',
  },
  {
    question: 'What if it does not work for my business?',
    answer:
      'You have a 30-day money-back guarantee. If the lead engine does not do what we promised, tell us within 30 days and you get your money back.',
  },
  {
    question: 'Why are there only 5 spots?',
    claim: 'lead_engine_spots',
    answer:
      'Each lead engine is set up by hand by our team. To keep the 72-hour delivery, we take on only 5 launch-offer clients at a time.',
  },
]

const offerFacts: Fact[] = [
  [ClockIcon, 'Delivered in 72h'],
  [ShieldIcon, '30-day money back guarantee'],
  [CheckIcon, 'Capture, qualification, follow-ups and CRM hand-off'],
]

function FlowVisual() {
  return (
    <div className="flow-visual" aria-hidden="true">
      <div className="flow-visual__row">
        <FormIcon size={20} />
        New enquiry from your website
        <Badge tone="blue" className="flow-visual__tag">
          0:00
        </Badge>
      </div>
      <ArrowRightIcon size={20} className="flow-visual__arrow" transform="rotate(90)" />
      <div className="flow-visual__row">
        <FilterIcon size={20} />
        AI qualifies: budget, timing, need
        <Badge tone="purple" className="flow-visual__tag">
          Hot lead
        </Badge>
      </div>
      <ArrowRightIcon size={20} className="flow-visual__arrow" transform="rotate(90)" />
      <div className="flow-visual__row">
        <MailIcon size={20} />
        Personal reply sent
        <Badge tone="green" className="flow-visual__tag">
          2 min
        </Badge>
      </div>
      <ArrowRightIcon size={20} className="flow-visual__arrow" transform="rotate(90)" />
      <div className="flow-visual__row">
        <LayersIcon size={20} />
        Handed to your CRM with a summary
      </div>
    </div>
  )
}

export default function AiLeadEnginePage() {
  return (
    <>
      <LandingHero
        badge={<Claim claim="lead_engine_badge" fallback="Launch offer" />}
        title="Your AI Lead Engine, Live in 72 Hours"
        lead="An AI system that captures every lead, qualifies it, follows up within minutes and hands the best ones to your CRM, so no enquiry goes cold while you are busy."
        points={['72h delivery', '30-day money back guarantee', { claim: 'lead_engine_spots' }]}
        actions={
          <>
            <ButtonLink to={CTA} size="lg">
              Claim Your Spot
            </ButtonLink>
            <ButtonLink to="#how-it-works" size="lg" variant="outline">
              See How It Works
            </ButtonLink>
          </>
        }
        aside={<FlowVisual />}
      />

      <Section id="what-it-does" aria-labelledby="what-it-does-title">
        <SectionHead
          eyebrow="What it does"
          title="From first click to qualified lead, on autopilot"
          titleId="what-it-does-title"
          text="Most leads go cold because nobody answers fast enough. The lead engine answers every one of them."
        />
        <IconCards items={capabilities} />
      </Section>

      <Section id="how-it-works" tone="muted" className="anchor-section" aria-labelledby="how-it-works-title">
        <SectionHead eyebrow="How it works" title="Four steps to a working lead engine" titleId="how-it-works-title" />
        <Steps items={steps} />
      </Section>

      <Section id="pricing" className="anchor-section" aria-labelledby="offer-title">
        <div className="offer-card--wide">
          <Offer
            role="group"
            aria-labelledby="offer-title"
            ribbon={<Claim claim="lead_engine_badge" fallback="Launch offer" />}
            name="AI Lead Engine"
            nameId="offer-title"
            facts={offerFacts}
            to={CTA}
            action="Claim Your Spot"
            fine="One-time payment. No subscription."
          >
            <OfferPrice planKey="ai-lead-engine" />
          </Offer>
        </div>
      </Section>

      <Section tone="muted" aria-labelledby="guarantee-title">
        <Guarantee title="30-day money back guarantee" titleId="guarantee-title">
          <p>
            Try the lead engine for 30 days. If it does not capture, qualify and follow up on your leads as promised, you
            get your money back. No forms to fill, no hard feelings.
          </p>
        </Guarantee>
      </Section>

      <Section id="faq" aria-labelledby="faq-title">
        <SectionHead eyebrow="FAQ" title="Questions about the AI Lead Engine" titleId="faq-title" />
        <FaqAccordion items={faq} />
      </Section>

      <ClosingCta
        title="Stop losing leads to slow replies"
        text={
          <>
            <Claim claim="lead_engine_spots">{(spots) => `${spots}. `}</Claim>
            Live in 72h, with a 30-day money back guarantee.
          </>
        }
        actions={
          <ButtonLink to={CTA} size="lg">
            Claim Your Spot
          </ButtonLink>
        }
      />

      <StickyMobileCta
        to={CTA}
        label="Claim Your Spot"
        note={
          <>
            <Claim claim="lead_engine_spots_short">{(spots) => `${spots} · `}</Claim>
            Live in 72h
          </>
        }
      />
    </>
  )
}
