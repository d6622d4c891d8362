import { ChartIcon } from '../components/icons/ChartIcon'
import { CheckIcon } from '../components/icons/CheckIcon'
import { ClockIcon } from '../components/icons/ClockIcon'
import { CardIcon } from '../components/icons/CardIcon'
import { FileTextIcon } from '../components/icons/FileTextIcon'
import { GaugeIcon } from '../components/icons/GaugeIcon'
import { LayersIcon } from '../components/icons/LayersIcon'
import { ShieldIcon } from '../components/icons/ShieldIcon'
import {
  claimAttrs,
  claimShown,
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
  Testimonials,
  startUrl,
} from '../features/content'
import { OfferPrice } from '../features/catalogue'
import { ButtonLink } from '../components/ui/Button'
import { Section } from '../components/ui/Section'

const CTA = startUrl('rebuild', 'sales-funnel-rebuild-offer')

const included: IconCardItem[] = [
  { title: 'Landing page rebuild', text: 'Your sales page redesigned around one clear offer and one clear call to action.', Icon: LayersIcon },
  { title: 'Order and thank-you pages', text: 'A clean checkout step and a thank-you page that sets up the next sale.', Icon: CardIcon },
  { title: 'Copy polish', text: 'Headlines, benefits and objections rewritten so visitors understand your offer in seconds.', Icon: FileTextIcon },
  { title: 'Tracking set up', text: 'Visits, leads and sales measured at every step, so you see exactly where people drop off.', Icon: ChartIcon },
  { title: 'Mobile-first design', text: 'Fast, thumb-friendly pages with a 99/100 PageSpeed score on phones.', Icon: GaugeIcon },
]

const steps: StepItem[] = [
  { title: 'Order your rebuild', text: 'Secure the launch price and send us the link to your current funnel.' },
  { title: 'We rebuild', text: 'We redesign the pages, polish the copy and set up tracking.' },
  { title: 'Live in 48h', text: 'Your new funnel goes live within 48 hours, ready for traffic.' },
]

const faq: FaqItem[] = [
  {
    question: 'Which funnel tools do you work with?',
    answer: 'We rebuild funnels on the platform you use today or move them to a fast, hosted page, whichever gives you the better result. We agree this with you before we start.',
  },
  {
    question: 'What do you need from me?',
    answer: 'The link to your current funnel, your offer and your logo. If you have testimonials or product photos, send them along too.',
  },
  {
    question: 'When do the 48 hours start?',
    answer: 'As soon as we have the link to your funnel and your materials. Your rebuilt funnel goes live within 48 hours after that.',
  },
  {
    question: 'What if I am not happy with the result?',
    answer: 'You have a 30-day money-back guarantee. If the rebuild does not meet your expectations, tell us within 30 days and you get your money back.',
  },
]

const offerFacts: Fact[] = [
  [ClockIcon, 'Delivered in 48h'],
  [ShieldIcon, '30-day money-back guarantee'],
  [CheckIcon, 'All five items included'],
]

/** In the hero the card's h2 follows the <h1>; in the pricing section it is the section's title. */
function OfferCard({ titleId }: { titleId?: string }) {
  return (
    <Offer
      ribbon="Launch offer"
      name="Sales Funnel Rebuild"
      nameId={titleId}
      facts={offerFacts}
      to={CTA}
      action="Rebuild My Funnel"
      fine="One-time payment. No subscription."
    >
      <OfferPrice planKey="sales-funnel-rebuild-offer" save="amount" />
    </Offer>
  )
}

export default function RebuildSalesFunnelPage() {
  return (
    <>
      <LandingHero
        badge="Launch offer"
        title="Your Sales Funnel, Rebuilt in 48 Hours"
        lead="Visitors come in, but too few buy. We rebuild your funnel pages, sharpen the copy and set up tracking, live within 48 hours."
        points={['48h delivery', '30-day money-back guarantee', 'Five fixes in one price']}
        actions={
          <>
            <ButtonLink to={CTA} size="lg">
              Rebuild My Funnel
            </ButtonLink>
            <ButtonLink to="#pricing" size="lg" variant="outline">
              See the Offer
            </ButtonLink>
          </>
        }
        aside={<OfferCard />}
      />

      <Section id="included" aria-labelledby="included-title">
        <SectionHead eyebrow="What’s included" title="Five things we rebuild for you" titleId="included-title" />
        <IconCards items={included} columns={3} />
      </Section>

      <Section tone="muted" aria-labelledby="how-title">
        <SectionHead eyebrow="How it works" title="Three steps, 48 hours" titleId="how-title" />
        <Steps items={steps} />
      </Section>

      <Section id="pricing" className="anchor-section" aria-labelledby="pricing-title">
        <div className="offer-card--wide">
          <OfferCard titleId="pricing-title" />
        </div>
      </Section>

      {claimShown('testimonials_rebuild_sales_funnel') && (
        <Section tone="muted" aria-labelledby="testimonials-title" {...claimAttrs('testimonials_rebuild_sales_funnel')}>
          <SectionHead eyebrow="Testimonials" title="Funnels we rebuilt" titleId="testimonials-title" />
          <Testimonials page="rebuild_sales_funnel" slots={3} />
        </Section>
      )}

      <Section aria-labelledby="guarantee-title">
        <Guarantee title="30-day money-back guarantee" titleId="guarantee-title">
          <p>Try your rebuilt funnel for 30 days. If you are not happy with it, you get your money back.</p>
        </Guarantee>
      </Section>

      <Section id="faq" tone="muted" aria-labelledby="faq-title">
        <SectionHead eyebrow="FAQ" title="Questions about the rebuild" titleId="faq-title" />
        <FaqAccordion items={faq} />
      </Section>

      <StickyMobileCta to={CTA} label="Rebuild My Funnel" note="Live in 48h · 30-day money-back" />
    </>
  )
}
