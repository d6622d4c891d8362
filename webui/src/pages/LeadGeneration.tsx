import { CalendarIcon } from '../components/icons/CalendarIcon'
import { ChartIcon } from '../components/icons/ChartIcon'
import { CheckIcon } from '../components/icons/CheckIcon'
import { ClockIcon } from '../components/icons/ClockIcon'
import { FormIcon } from '../components/icons/FormIcon'
import { GaugeIcon } from '../components/icons/GaugeIcon'
import { PhoneIcon } from '../components/icons/PhoneIcon'
import { SearchIcon } from '../components/icons/SearchIcon'
import { ShieldIcon } from '../components/icons/ShieldIcon'
import {
  claimAttrs,
  claimShown,
  Guarantee,
  IconCards,
  LeadPanel,
  OfferCard as Offer,
  type Fact,
  type IconCardItem,
  FaqAccordion,
  type FaqItem,
  LandingHero,
  SectionHead,
  StickyMobileCta,
  Testimonials,
  startUrl,
} from '../features/content'
import { DOMAIN_FIELD, EMAIL_FIELD, LeadForm, NAME_FIELD } from '../features/leads'
import { OfferPrice } from '../features/catalogue'
import { ButtonLink } from '../components/ui/Button'
import { Section } from '../components/ui/Section'
import { siteConfig } from '../lib/site-config'

const CTA = startUrl('leadgen', 'landing-page-rebuild')

const fixes: IconCardItem[] = [
  { title: 'Slow mobile pages', text: 'Most patients search on their phone. We rebuild your page to a 99/100 PageSpeed score so it opens instantly.', Icon: GaugeIcon },
  { title: 'Hidden booking button', text: 'A clear “Book a consultation” button on every screen, so patients never have to hunt for it.', Icon: CalendarIcon },
  { title: 'Long, confusing forms', text: 'We cut the enquiry form down to what you really need, so more patients finish it.', Icon: FormIcon },
  { title: 'Missing trust signals', text: 'Qualifications, reviews and before/after information placed where patients look for reassurance.', Icon: ShieldIcon },
  { title: 'Weak local search', text: 'Clean structure, titles and local details so patients nearby find your clinic on Google.', Icon: SearchIcon },
  { title: 'No tracking', text: 'Enquiries and bookings are measured, so you finally know which ads and pages bring patients.', Icon: ChartIcon },
]

const faq: FaqItem[] = [
  {
    question: 'What exactly do you rebuild?',
    answer: 'Your main landing page and the booking funnel behind it: page design, copy polish, consultation form, mobile speed and tracking. Your domain and the rest of your website stay as they are.',
  },
  {
    question: 'Is it really done in 24 hours?',
    answer: 'Yes. Once we have your current page, logo and the treatments you want to promote, your rebuilt landing page goes live within 24 hours.',
  },
  {
    question: 'What if the new page does not bring more enquiries?',
    answer: 'You have a 30-day money-back guarantee. If you are not happy with the result, tell us within 30 days and we refund you.',
  },
  {
    question: 'Do you follow medical advertising rules?',
    answer: 'We keep claims factual and avoid promises about treatment outcomes. You approve every text before the page goes live.',
  },
]

const offerFacts: Fact[] = [
  [ClockIcon, 'Delivered in 24h'],
  [ShieldIcon, '30-day money-back guarantee'],
  [GaugeIcon, '99/100 PageSpeed score'],
  [CheckIcon, 'All six fixes included'],
]

/** In the hero the card follows the <h1> (h2); in the pricing section it sits under its h2 (h3). */
function OfferCard({ headingLevel }: { headingLevel: 2 | 3 }) {
  return (
    <Offer
      ribbon="Landing page & funnel rebuild"
      name="Everything fixed, live in 24h"
      nameAs={headingLevel === 2 ? 'h2' : 'h3'}
      facts={offerFacts}
      to={CTA}
      action="Rebuild My Landing Page"
      fine="One-time payment. No subscription."
    >
      <OfferPrice planKey="landing-page-rebuild" />
    </Offer>
  )
}

export default function LeadGenerationPage() {
  return (
    <>
      <LandingHero
        badge="For clinics and practices"
        title="Turn Your Clinic Website Into a Patient Booking Machine"
        lead="We rebuild your clinic’s landing page and booking funnel in 24 hours, so more of the patients who visit actually book a consultation."
        points={['Live in 24h', '30-day money-back guarantee', 'Fast on every phone']}
        actions={
          <>
            <ButtonLink to={CTA} size="lg">
              Rebuild My Landing Page
            </ButtonLink>
            <ButtonLink to="#consultation" size="lg" variant="outline">
              Book a Free Consultation
            </ButtonLink>
          </>
        }
        aside={<OfferCard headingLevel={2} />}
      />

      <Section id="fixes" aria-labelledby="fixes-title">
        <SectionHead
          eyebrow="What we fix"
          title="Six reasons patients leave without booking"
          titleId="fixes-title"
          text="We find and fix every one of them in your rebuild."
        />
        <IconCards items={fixes} columns={3} />
      </Section>

      <Section id="pricing" tone="muted" className="anchor-section" aria-labelledby="pricing-title">
        <SectionHead eyebrow="Pricing" title="One price, everything included" titleId="pricing-title" />
        <div className="offer-card--wide">
          <OfferCard headingLevel={3} />
        </div>
      </Section>

      {claimShown('testimonials_lead_generation') && (
        <Section aria-labelledby="testimonials-title" {...claimAttrs('testimonials_lead_generation')}>
          <SectionHead eyebrow="Testimonials" title="Clinics that rebuilt with us" titleId="testimonials-title" />
          <Testimonials page="lead_generation" slots={3} />
        </Section>
      )}

      <Section tone="muted" aria-labelledby="guarantee-title">
        <Guarantee title="30-day money-back guarantee" titleId="guarantee-title">
          <p>If your new landing page does not win you over within 30 days, you get your money back. No questions asked.</p>
        </Guarantee>
      </Section>

      <Section id="consultation" className="anchor-section" aria-labelledby="consultation-title">
        <LeadPanel
          title="Book a free consultation"
          titleId="consultation-title"
          text="Not sure yet? Leave your e-mail and we will look at your current page together and show you what we would change, free of charge."
          card={
            <LeadForm
              source="clinic-consultation"
              submitLabel="Book My Free Consultation"
              fields={[NAME_FIELD, EMAIL_FIELD, { ...DOMAIN_FIELD, placeholder: 'yourpractice.com' }]}
              note="Free and without obligation."
            />
          }
        >
          <p className="contact-phone lead-panel__list">
            <PhoneIcon size={20} />
            <span>
              Prefer to talk? Call us: <a href={siteConfig().phoneHref}>{siteConfig().phone}</a>
            </span>
          </p>
        </LeadPanel>
      </Section>

      <Section id="faq" tone="muted" aria-labelledby="faq-title">
        <SectionHead eyebrow="FAQ" title="Questions from clinics" titleId="faq-title" />
        <FaqAccordion items={faq} />
      </Section>

      <StickyMobileCta to={CTA} label="Rebuild My Page" note="Live in 24h · 30-day money-back" />
    </>
  )
}
