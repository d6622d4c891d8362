import { BellIcon } from '../components/icons/BellIcon'
import { CalendarIcon } from '../components/icons/CalendarIcon'
import { CheckIcon } from '../components/icons/CheckIcon'
import { ClockIcon } from '../components/icons/ClockIcon'
import { MailIcon } from '../components/icons/MailIcon'
import { UsersIcon } from '../components/icons/UsersIcon'
import {
  Guarantee,
  IconCards,
  LeadPanel,
  type IconCardItem,
  FaqAccordion,
  type FaqItem,
  LandingHero,
  SectionHead,
  StickyMobileCta,
  startUrl,
} from '../features/content'
import { usePlan, PlanTiers, formatPrice } from '../features/catalogue'
import { ButtonLink } from '../components/ui/Button'
import { Section } from '../components/ui/Section'

const TYPE = 'ai-booking'
const PLANS = ['ai-booking-starter', 'ai-booking-pro', 'ai-booking-premium'] as const
const MAIN_CTA = startUrl(TYPE, 'ai-booking-pro')
const DEMO_CTA = startUrl(TYPE)
/** Assumed value of one appointment for the ROI example (an example figure, not our price). */
const EXAMPLE_APPOINTMENT_CENTS = 8000

const features: IconCardItem[] = [
  { title: 'Book around the clock', text: 'Patients book the right treatment at a free slot, day or night, without calling your front desk.', Icon: CalendarIcon },
  { title: 'Reschedule and cancel', text: 'Patients move or cancel appointments themselves, and the freed slot is offered to the next patient.', Icon: ClockIcon },
  { title: 'Automatic reminders', text: 'Reminders by e-mail or text before each visit cut no-shows and last-minute gaps.', Icon: BellIcon },
  { title: 'A calmer front desk', text: 'Your team spends less time on the phone and more time with the patients in the room.', Icon: UsersIcon },
]

const faq: FaqItem[] = [
  {
    question: 'Does it work with our existing calendar?',
    answer: 'Yes. The booking system connects to the calendar or practice software you already use, so appointments appear where your team already looks.',
  },
  {
    question: 'How long does the setup take?',
    answer: 'Your AI booking system is set up within 7 days, including your treatments, opening hours and reminder messages.',
  },
  {
    question: 'Is patient data handled safely?',
    answer: 'We collect only what a booking needs (name, contact details, the chosen treatment and time) and follow European data-protection rules. No medical records pass through the booking system.',
  },
  {
    question: 'What if it does not work for our clinic?',
    answer: 'You are covered by a 60-day money-back guarantee. If the system does not work for your clinic, tell us within 60 days and you get your money back.',
  },
]

function RoiNote() {
  const { plan } = usePlan('ai-booking-pro')
  const appointments = plan ? Math.ceil(plan.price / EXAMPLE_APPOINTMENT_CENTS) : null
  return (
    <div className="roi-note" aria-live="polite">
      <h2 id="roi-title" className="roi-note__title">
        What does a missed appointment cost you?
      </h2>
      <p>
        Every no-show and every call that goes unanswered after hours is a lost appointment. Reminders and round-the-clock
        booking win many of them back.
      </p>
      {plan && appointments !== null ? (
        <p className="roi-note__math">
          Example: at {formatPrice(EXAMPLE_APPOINTMENT_CENTS, plan.currency)} per appointment, {plan.name} (
          {formatPrice(plan.price, plan.currency)} one-time) pays for itself after {appointments} recovered appointments.
        </p>
      ) : (
        <p className="roi-note__math">Example: a handful of recovered appointments pays for the system.</p>
      )}
    </div>
  )
}

function BookingDemo() {
  return (
    <div className="chat-demo" aria-hidden="true">
      <p className="chat-demo__msg chat-demo__msg--in">Hi! I’d like a check-up next week, ideally in the morning.</p>
      <p className="chat-demo__msg chat-demo__msg--out">Of course. I have Tuesday 9:00 or Thursday 10:30 with Dr. Weber. Which suits you?</p>
      <p className="chat-demo__msg chat-demo__msg--in">Thursday 10:30, please.</p>
      <p className="chat-demo__msg chat-demo__msg--out">
        <CheckIcon size={16} /> Booked! You’ll get a reminder the day before.
      </p>
    </div>
  )
}

export default function AiBookingSystemPage() {
  return (
    <>
      <LandingHero
        badge="AI booking for clinics"
        title="Your Clinic Books Itself, Around the Clock"
        lead="Patients book, reschedule and get reminders 24/7 while your front desk focuses on the people in the room. Set up for you in 7 days."
        points={['Fewer no-shows with automatic reminders', 'Works with your calendar', '60-day money-back guarantee']}
        actions={
          <>
            <ButtonLink to={MAIN_CTA} size="lg">
              Start My AI Booking System
            </ButtonLink>
            <ButtonLink to="#demo" size="lg" variant="outline">
              See the Demo
            </ButtonLink>
          </>
        }
        aside={<BookingDemo />}
      />

      <Section aria-labelledby="features-title">
        <SectionHead
          eyebrow="What it does"
          title="Bookings without the phone tag"
          titleId="features-title"
          text="An AI assistant on your website that knows your treatments, your opening hours and your free slots."
        />
        <IconCards items={features} />
      </Section>

      <Section id="pricing" tone="muted" className="anchor-section" aria-labelledby="pricing-title">
        <SectionHead
          eyebrow="Packages"
          title="Pick the package for your clinic"
          titleId="pricing-title"
          text="Set up in 7 days, every package with a 60-day money-back guarantee."
        />
        <PlanTiers type={TYPE} planKeys={PLANS} />
      </Section>

      <Section aria-labelledby="roi-title">
        <RoiNote />
      </Section>

      <Section id="demo" tone="muted" className="anchor-section" aria-labelledby="demo-title">
        <LeadPanel
          title="See your booking assistant in action"
          titleId="demo-title"
          text="This is how a patient books with your AI assistant: a short conversation, a confirmed slot and a reminder the day before. Start your setup and we build the same flow with your treatments, team and opening hours."
          points={['Your treatments and durations', 'Your team’s real availability', 'Reminders in your clinic’s tone']}
          cardClassName="demo-card"
          card={
            <>
              <span className="icon-tile">
                <MailIcon />
              </span>
              <h3 className="demo-card__title">Get your own booking demo</h3>
              <p className="demo-card__text">
                Choose your package and tell us about your clinic; your personal demo is part of the setup.
              </p>
              <ButtonLink to={DEMO_CTA} size="lg" block>
                Start With a Demo
              </ButtonLink>
            </>
          }
        />
      </Section>

      <Section aria-labelledby="guarantee-title">
        <Guarantee title="60-day money-back guarantee" titleId="guarantee-title">
          <p>
            Run the booking system in your clinic for 60 days. If it does not make booking easier for your patients and
            your team, you get your money back.
          </p>
        </Guarantee>
      </Section>

      <Section id="faq" tone="muted" aria-labelledby="faq-title">
        <SectionHead eyebrow="FAQ" title="Questions from clinics" titleId="faq-title" />
        <FaqAccordion items={faq} />
      </Section>

      <StickyMobileCta to={MAIN_CTA} label="Start My AI Booking" note="60-day money-back" />
    </>
  )
}
