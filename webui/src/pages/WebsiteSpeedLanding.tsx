import { ArrowRightIcon } from '../components/icons/ArrowRightIcon'
import { ClockIcon } from '../components/icons/ClockIcon'
import { GaugeIcon } from '../components/icons/GaugeIcon'
import { HandshakeIcon } from '../components/icons/HandshakeIcon'
import { MailIcon } from '../components/icons/MailIcon'
import { PaletteIcon } from '../components/icons/PaletteIcon'
import { SearchIcon } from '../components/icons/SearchIcon'
import { ServerIcon } from '../components/icons/ServerIcon'
import { ShieldIcon } from '../components/icons/ShieldIcon'
import {
  Claim,
  claimText,
  type ClaimKey,
  claimAttrs,
  claimShown,
  ClosingCta,
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
import { ScoreGauge } from '../features/speedtest'
import { ButtonLink } from '../components/ui/Button'
import { Card } from '../components/ui/Card'
import { Section } from '../components/ui/Section'

/** The website plan this page sells (19 euros a month in the catalogue). */
const PLAN = 'starter'
const CTA = startUrl('website', PLAN)
const CTA_LABEL = 'Get My Fast Website'

const facts: { value: string; label: string; claim?: ClaimKey }[] = [
  { value: '73%', label: 'of buyers leave a site that loads slowly', claim: 'slow_site_leave' },
  { value: '99/100', label: 'PageSpeed score for the site we build you' },
  { value: '24h', label: 'from order to your new site going live' },
]

const steps: StepItem[] = [
  { title: 'Test', text: 'Run our free mobile speed test and see your PageSpeed score, speed index and blocking time in one report.' },
  { title: 'Rebuild', text: 'We rebuild your site from scratch on clean, fast code: no page builder, no plugins, your content kept.' },
  { title: 'Launch', text: 'Your new site goes live on your domain within 24 hours, with a 99/100 PageSpeed score and hosting included.' },
]

const included: IconCardItem[] = [
  { title: 'Hosting included', text: 'Fast, secure hosting with SSL is part of the monthly price. No separate hosting bill.', Icon: ServerIcon },
  { title: 'No plugins', text: 'Nothing to update, nothing to break. Your site is hand-built code, not a stack of add-ons.', Icon: ShieldIcon },
  { title: 'Premium design', text: 'A modern, mobile-first design that makes your business look as good as it is.', Icon: PaletteIcon },
  { title: 'E-mail automation', text: 'Every enquiry is captured and answered automatically, so no lead waits until Monday.', Icon: MailIcon },
  { title: 'SEO built in', text: 'Titles, descriptions and structured data set up for every page from day one.', Icon: SearchIcon },
  { title: '100% done for you', text: 'We design, build, host and maintain it. You send us your current link, we do the rest.', Icon: HandshakeIcon },
]

const faq: FaqItem[] = [
  {
    question: 'Do I keep my domain and my content?',
    answer: 'Yes. We move your texts, images and pages over to the new site and connect it to the domain you already own. Your visitors simply get a faster website at the same address.',
  },
  {
    question: 'How can the site be live in 24 hours?',
    answer: 'We build every site on our own fast, tested foundation instead of starting from a blank page. Once we have the link to your current site, the rebuild goes live within 24 hours.',
  },
  {
    question: 'What is included in the monthly price?',
    answer: 'Design, the rebuild itself, hosting with SSL, the 99/100 PageSpeed score and ongoing care. There are no plugins to license and no separate hosting bill.',
  },
  {
    question: 'Is there a contract?',
    answer: 'No long contract. The plan is billed monthly and you can cancel anytime.',
  },
]

/** Before/after PageSpeed scores (hero visual): 48 on the old site, 99 after the rebuild. */
function ScoreCompare() {
  return (
    <Card className="score-compare">
      <p className="score-compare__title">
        <GaugeIcon size={18} />
        Mobile PageSpeed score
      </p>
      <div className="score-compare__gauges">
        <ScoreGauge score={48} label="Before" />
        <span className="score-compare__arrow" aria-hidden="true">
          <ArrowRightIcon size={28} />
        </span>
        <ScoreGauge score={99} label="After" />
      </div>
      <p className="score-compare__note">A typical small-business site before and after our rebuild.</p>
      <div className="score-compare__price">
        <p className="score-compare__price-label">Rebuilt, hosted and cared for</p>
        <OfferPrice planKey={PLAN} size="md" />
      </div>
    </Card>
  )
}

const offerFacts: Fact[] = [
  [ClockIcon, 'Live within 24 hours'],
  [GaugeIcon, '99/100 PageSpeed score'],
  [ServerIcon, 'Hosting and SSL included'],
  [ShieldIcon, 'No plugins, no page builder'],
]

export default function WebsiteSpeedLandingPage() {
  return (
    <>
      <LandingHero
        badge="Website speed rebuild"
        title="Is Your Slow Website Costing You Clients?"
        lead={
          <>
            <Claim claim="slow_site_leave">{(share) => `${share} of buyers leave a site that loads slowly. `}</Claim>
            We rebuild yours with a 99/100 PageSpeed score, live within 24 hours, with hosting included in one small monthly
            price.
          </>
        }
        points={['Live within 24 hours', '99/100 PageSpeed score', 'Hosting included, no plugins']}
        actions={
          <>
            <ButtonLink to={CTA} size="lg">
              {CTA_LABEL}
            </ButtonLink>
            <ButtonLink to="/speed-test" size="lg" variant="outline">
              Test My Speed Free
            </ButtonLink>
          </>
        }
        aside={<ScoreCompare />}
      />

      <Section tone="muted" className="section--tight" aria-label="Why speed matters">
        <ul className="fact-strip">
          {facts.map((fact) => {
            // A marketing figure is the operator's (claims file): its configured value, or no item.
            const value = fact.claim ? claimText(fact.claim) : fact.value
            if (value === null) return null
            return (
              <li key={fact.label} className="fact-strip__item" {...(fact.claim ? claimAttrs(fact.claim) : {})}>
                <span className="fact-strip__value">{value}</span>
                <span className="fact-strip__label">{fact.label}</span>
              </li>
            )
          })}
        </ul>
      </Section>

      <Section id="how-it-works" className="anchor-section" aria-labelledby="how-title">
        <SectionHead
          eyebrow="How it works"
          title="Test, rebuild, launch"
          titleId="how-title"
          text="From a slow site to a fast one in three steps and 24 hours."
        />
        <Steps items={steps} />
        <p className="speed-steps__action">
          <ButtonLink to="/speed-test" variant="outline">
            Start With a Free Speed Test
          </ButtonLink>
        </p>
      </Section>

      <Section id="included" tone="muted" aria-labelledby="included-title">
        <SectionHead
          eyebrow="What you get"
          title="Everything a fast website needs, done for you"
          titleId="included-title"
          text="Faster than a typical WordPress site, simpler than hiring an agency, and all in one monthly price."
        />
        <IconCards items={included} columns={3} />
      </Section>

      <Section id="pricing" className="anchor-section" aria-labelledby="pricing-title">
        <SectionHead eyebrow="Pricing" title="One plan, one small monthly price" titleId="pricing-title" />
        <div className="offer-card--wide">
          <Offer
            ribbon="Starter website plan"
            name="Your fast website, everything included"
            nameAs="h3"
            facts={offerFacts}
            to={CTA}
            action={CTA_LABEL}
            fine="Billed monthly. Cancel anytime."
          >
            <OfferPrice planKey={PLAN} />
          </Offer>
        </div>
      </Section>

      {claimShown('testimonials_website_speed_landing') && (
        <Section tone="muted" aria-labelledby="testimonials-title" {...claimAttrs('testimonials_website_speed_landing')}>
          <SectionHead eyebrow="Testimonials" title="Slow sites we made fast" titleId="testimonials-title" />
          <Testimonials page="website_speed_landing" slots={3} />
        </Section>
      )}

      <Section id="faq" aria-labelledby="faq-title">
        <SectionHead eyebrow="FAQ" title="Questions about the rebuild" titleId="faq-title" />
        <FaqAccordion items={faq} />
      </Section>

      <ClosingCta
        title="Every slow second sends a client to your competitor"
        text="Get a website with a 99/100 PageSpeed score, live within 24 hours, hosting included."
        actions={
          <>
            <ButtonLink to={CTA} size="lg">
              {CTA_LABEL}
            </ButtonLink>
            <ButtonLink to="/speed-test" size="lg" variant="outline">
              Test My Speed Free
            </ButtonLink>
          </>
        }
      />

      <StickyMobileCta to={CTA} label={CTA_LABEL} note="Live in 24h · Hosting included" />
    </>
  )
}
