import { ArrowRightIcon } from '../components/icons/ArrowRightIcon'
import { CalendarIcon } from '../components/icons/CalendarIcon'
import { ChartIcon } from '../components/icons/ChartIcon'
import { FileTextIcon } from '../components/icons/FileTextIcon'
import { FilterIcon } from '../components/icons/FilterIcon'
import { GaugeIcon } from '../components/icons/GaugeIcon'
import { HandshakeIcon } from '../components/icons/HandshakeIcon'
import { LayersIcon } from '../components/icons/LayersIcon'
import { MailIcon } from '../components/icons/MailIcon'
import { RocketIcon } from '../components/icons/RocketIcon'
import {
  claimAttrs,
  claimShown,
  claimSlots,
  claimText,
  CheckList,
  Guarantee,
  IconCards,
  LeadPanel,
  type IconCardItem,
  useBookingCalendar,
  FaqAccordion,
  type FaqItem,
  LandingHero,
  SectionHead,
  StickyMobileCta,
  Testimonials,
} from '../features/content'
import { DOMAIN_FIELD, EMAIL_FIELD, LeadForm, NAME_FIELD } from '../features/leads'
import { PlanTiers } from '../features/catalogue'
import { Badge } from '../components/ui/Badge'
import { ButtonLink } from '../components/ui/Button'
import { Card } from '../components/ui/Card'
import { Section } from '../components/ui/Section'
import { siteConfig } from '../lib/site-config'

/** Funnel packages are sold after the free consultation, never through /start. */
const BOOK = '#book'
const CTA_LABEL = 'Apply For Your Free Funnel Teardown'
const PACKAGES = ['starter-funnel', 'growth-funnel', 'enterprise-funnel'] as const

const benefits: IconCardItem[] = [
  { title: 'One clear path to buy', text: 'Every page leads to one next step, from the first click to the order and the thank-you page.', Icon: FilterIcon },
  { title: 'Copy that sells', text: 'Headlines, offer, objections and guarantees written around your customers’ words, not ours.', Icon: FileTextIcon },
  { title: 'Fast on every phone', text: 'Lightweight, mobile-first pages that open instantly, so paid traffic is not wasted on waiting.', Icon: GaugeIcon },
  { title: 'Follow-up that runs itself', text: 'E-mails that bring back visitors who did not buy yet, connected to the tool you already use.', Icon: MailIcon },
  { title: 'Every step measured', text: 'Visits, opt-ins and sales tracked per step, so you know exactly where to improve next.', Icon: ChartIcon },
  { title: 'Done for you', text: 'You answer one questionnaire and approve the result. Strategy, writing, design and set-up are on us.', Icon: HandshakeIcon },
]

interface ProcessStep {
  day: string
  title: string
  text: string
}

const process: ProcessStep[] = [
  { day: 'Before day 1', title: 'Your questionnaire', text: 'About 20 minutes on your offer, customers and goals. The 7 days start when we have your answers.' },
  { day: 'Day 1', title: 'Strategy and funnel map', text: 'We map every step from first click to purchase and agree the plan with you before we write a word.' },
  { day: 'Days 2–3', title: 'Copy', text: 'Sales page, order page, upsell and follow-up e-mails, written around your offer and your customers’ objections.' },
  { day: 'Days 4–5', title: 'Design and build', text: 'Mobile-first pages built for speed and connected to your checkout, calendar and e-mail tool.' },
  { day: 'Day 6', title: 'Tracking and testing', text: 'Every step tracked and tested on phones, tablets and desktops, including a real test order.' },
  { day: 'Day 7', title: 'Launch', text: 'Your funnel goes live, ready for traffic. Unlimited revisions for 30 days after delivery.' },
]

const faq: FaqItem[] = [
  {
    question: 'When do the 7 days start?',
    answer: 'The day after we receive your completed questionnaire. Your funnel is built and ready to launch 7 days later.',
  },
  {
    question: 'What is the free funnel teardown?',
    answer: 'A free 30-minute consultation in which we go through your current funnel or offer, show you where visitors drop off and what we would build. You decide afterwards, with no obligation.',
  },
  {
    question: 'What if I am not happy with my funnel?',
    answer: 'You are covered by a 14-day money-back guarantee. If the funnel is not what we agreed, tell us within 14 days of delivery and you get your money back.',
  },
  {
    question: 'Can I ask for changes after launch?',
    answer: 'Yes. You get unlimited revisions for 30 days after delivery: copy, layout, e-mails or tracking. Your package’s support period (30, 60 or 90 days) covers questions and fixes beyond that.',
  },
  {
    question: 'Which tools do you build on?',
    answer: 'On the checkout, calendar and e-mail tools you already use wherever possible, or on fast hosted pages when that serves you better. We agree this on the consultation.',
  },
  {
    question: 'Why can I not buy a package online?',
    answer: 'Every funnel depends on your offer, so we confirm the package and scope with you on the free call first. You pay only once we have both agreed what we will build.',
  },
]

function FunnelVisual() {
  const rows: { label: string; tag: string; tone: 'blue' | 'purple' | 'green' }[] = [
    { label: 'Visitor lands on your offer page', tag: 'Page 1', tone: 'blue' },
    { label: 'Order page with order bump', tag: 'Page 2', tone: 'blue' },
    { label: 'One-click upsell', tag: '+ value', tone: 'purple' },
    { label: 'Thank-you page and e-mail follow-up', tag: 'Day 7 live', tone: 'green' },
  ]
  return (
    <div className="flow-visual" aria-hidden="true">
      {rows.map((row, index) => (
        <div key={row.label} className="funnel-visual__step">
          {index > 0 && <ArrowRightIcon size={20} className="flow-visual__arrow" transform="rotate(90)" />}
          <div className="flow-visual__row">
            {index === rows.length - 1 ? <RocketIcon size={20} /> : <LayersIcon size={20} />}
            {row.label}
            <Badge tone={row.tone} className="flow-visual__tag">
              {row.tag}
            </Badge>
          </div>
        </div>
      ))}
    </div>
  )
}

export default function SalesFunnelPage() {
  const { contactEmail } = siteConfig()
  const calendar = useBookingCalendar('Booking calendar: free 30-minute consultation')
  return (
    <div className="funnel-page">
      <LandingHero
        badge="Done-for-you sales funnel"
        title="Done-For-You Sales Funnel in 7 Days"
        lead="You answer one questionnaire. Seven days later your complete funnel is live: pages, copy, follow-up e-mails and tracking, built to turn visitors into customers."
        points={['Built in 7 days after your questionnaire', 'Unlimited revisions for 30 days', '14-day money-back guarantee']}
        actions={
          <>
            <ButtonLink to={BOOK} size="lg">
              {CTA_LABEL}
            </ButtonLink>
            <ButtonLink to="#packages" size="lg" variant="outline">
              See Packages
            </ButtonLink>
          </>
        }
        aside={<FunnelVisual />}
      />

      <Section id="benefits" aria-labelledby="benefits-title">
        <SectionHead
          eyebrow="Why a funnel"
          title="Everything your offer needs to sell"
          titleId="benefits-title"
          text="Not a single landing page but the whole path from first visit to repeat purchase, built and connected for you."
        />
        <IconCards items={benefits} columns={3} />
      </Section>

      <Section id="process" tone="muted" aria-labelledby="process-title">
        <SectionHead
          eyebrow="The 7-day process"
          title="From questionnaire to launch in 7 days"
          titleId="process-title"
          text="A fixed schedule, so you know what happens on each day and when your funnel goes live."
        />
        <ol className="funnel-process">
          {process.map((step) => (
            <li key={step.title}>
              <Card className="step funnel-process__step">
                <Badge tone="purple" className="funnel-process__day">
                  {step.day}
                </Badge>
                <h3 className="step__title">{step.title}</h3>
                <p className="step__text">{step.text}</p>
              </Card>
            </li>
          ))}
        </ol>
      </Section>

      {claimShown('testimonials_sales_funnel') && (
        <Section aria-labelledby="testimonials-title" {...claimAttrs('testimonials_sales_funnel')}>
          <SectionHead eyebrow="Testimonials" title="Founders who launched with us" titleId="testimonials-title" />
          <Testimonials page="sales_funnel" slots={3} />
        </Section>
      )}

      {claimShown('client_logos') && (
        <Section id="clients" className="logo-strip" aria-labelledby="clients-title" {...claimAttrs('client_logos')}>
          <h2 id="clients-title" className="logo-strip__title">
            Funnels we have built for
          </h2>
          <ul className="logo-strip__list">
            {claimSlots('logo', 6).map((slot) => (
              <li key={slot} {...claimAttrs(slot)}>
                <img src={claimText(`${slot}_image`) ?? undefined} alt={claimText(slot) ?? ''} width="160" height="48" loading="lazy" decoding="async" />
              </li>
            ))}
          </ul>
        </Section>
      )}

      <Section id="packages" tone="muted" className="anchor-section" aria-labelledby="packages-title">
        <SectionHead
          eyebrow="Packages"
          title="Pick the funnel that fits your offer"
          titleId="packages-title"
          text="Every package is built in 7 days and comes with unlimited revisions for 30 days after delivery."
        />
        <PlanTiers type="funnel" planKeys={PACKAGES} ctaTo={BOOK} ctaLabel="Book a Free Consultation" />
        <p className="pricing-note">
          We confirm the package and scope with you on a free 30-minute consultation. No payment online, and nothing to
          pay until we have agreed what we build.
        </p>
      </Section>

      <Section aria-labelledby="guarantee-title">
        <Guarantee title="14-day money-back guarantee" titleId="guarantee-title">
          <p>
            If your funnel is not what we agreed, tell us within 14 days of delivery and you get your money back. On top,
            you get unlimited revisions for 30 days after delivery.
          </p>
        </Guarantee>
      </Section>

      <Section id="faq" tone="muted" aria-labelledby="faq-title">
        <SectionHead eyebrow="FAQ" title="Questions about your funnel" titleId="faq-title" />
        <FaqAccordion items={faq} />
      </Section>

      <Section id="book" className="anchor-section" aria-labelledby="book-title">
        <LeadPanel
          className="booking"
          introClassName="booking__intro"
          eyebrow="Free 30-minute consultation"
          title="Book your free funnel consultation"
          titleId="book-title"
          text="On the call we tear down your current funnel or offer, show you where buyers drop off and recommend the package that fits. Free and without obligation."
          card={
            <>
              <h3 className="booking__form-title">
                <CalendarIcon size={22} />
                {CTA_LABEL}
              </h3>
              <p className="booking__form-text">
                Leave your details and the address of your current funnel. We will contact you to schedule your free
                consultation.
              </p>
              <LeadForm
                source="sales-funnel-teardown"
                submitLabel="Apply Now"
                fields={[NAME_FIELD, EMAIL_FIELD, { ...DOMAIN_FIELD, placeholder: 'yourfunnel.com' }]}
                note="Free and without obligation. We reply within 24 hours."
              />
            </>
          }
        >
          <CheckList
            items={['Where your current funnel loses buyers', 'A 7-day build plan for your offer', 'An honest package recommendation']}
            className="check-list booking__list"
          />
          {calendar.control}
          <p className="booking__email">
            <MailIcon size={20} />
            <span>
              Questions first? E-mail us at <a href={`mailto:${contactEmail}`}>{contactEmail}</a>
            </span>
          </p>
        </LeadPanel>
        {calendar.frame}
      </Section>

      <StickyMobileCta to={BOOK} label={CTA_LABEL} />
    </div>
  )
}
