import { CalendarIcon } from '../components/icons/CalendarIcon'
import { CheckIcon } from '../components/icons/CheckIcon'
import { CloseIcon } from '../components/icons/CloseIcon'
import { GaugeIcon } from '../components/icons/GaugeIcon'
import { HomeIcon } from '../components/icons/HomeIcon'
import { MailIcon } from '../components/icons/MailIcon'
import { SearchIcon } from '../components/icons/SearchIcon'
import { ServerIcon } from '../components/icons/ServerIcon'
import {
  claimAttrs,
  claimShown,
  ClosingCta,
  Guarantee,
  IconCards,
  type IconCardItem,
  FaqAccordion,
  type FaqItem,
  LandingHero,
  SectionHead,
  StickyMobileCta,
  Testimonials,
} from '../features/content'
import { PlanTiers } from '../features/catalogue'
import { ButtonLink } from '../components/ui/Button'
import { Card } from '../components/ui/Card'
import { Section } from '../components/ui/Section'

/** Every call to action except the tier cards goes to the free demo request. */
const DEMO = '/free-preview'
const DEMO_LABEL = 'Get My Free Demo'
const TYPE = 'rebuild'
const PLANS = ['basic-rebuild', 'pro-rebuild', 'premium-rebuild'] as const

const beforeAfter: { before: string; after: string }[] = [
  {
    before: 'Pages that take seconds to load while buyers scroll on their phone.',
    after: 'Pages that open in about a second, with a 99/100 PageSpeed score.',
  },
  {
    before: 'Your best properties buried three clicks deep in a dated listings page.',
    after: 'Featured properties on the first screen, with large photos and key facts.',
  },
  {
    before: 'A generic contact form that buyers and sellers rarely fill in.',
    after: 'A clear “Book a viewing” and “Get a valuation” button on every page.',
  },
  {
    before: 'A design that looks older than the homes you are selling.',
    after: 'A premium, modern design that makes your agency look established.',
  },
]

const features: IconCardItem[] = [
  { title: 'Listings that sell', text: 'Property pages with large photos, key facts and a clear price, built to make buyers ask for a viewing.', Icon: HomeIcon },
  { title: 'Fast on every phone', text: 'A 99/100 PageSpeed score, so buyers browsing on the go never wait for a listing to load.', Icon: GaugeIcon },
  { title: 'Viewing requests', text: 'Buyers request a viewing in a few taps, and you get every request in your inbox straight away.', Icon: CalendarIcon },
  { title: 'Seller leads', text: 'A valuation request form that turns homeowners in your area into listing appointments.', Icon: MailIcon },
  { title: 'Local SEO', text: 'Clean structure, titles and local details, so people searching for an agent nearby find you.', Icon: SearchIcon },
  { title: 'Hosting included', text: 'Fast, secure hosting with SSL set up for you. No plugins to update, nothing to maintain.', Icon: ServerIcon },
]

const faq: FaqItem[] = [
  {
    question: 'What is in the free demo?',
    answer: 'We analyse your current website and build a preview of your new homepage with your own logo, colours and listings. You receive it by e-mail within 2 hours, free and without obligation.',
  },
  {
    question: 'What does “live within 24 hours” mean?',
    answer: 'Once you order and we have your materials, your new website goes live within 24 hours. If you are not happy with it, the 30-day money-back guarantee applies.',
  },
  {
    question: 'Can I keep my domain and my listings?',
    answer: 'Yes. We move your existing listings, texts and photos to the new site and connect it to the domain you already own.',
  },
  {
    question: 'Which package is right for my agency?',
    answer: 'Basic suits a one-page site for a single agent. Pro covers up to 3 pages, such as home, listings and contact. Premium gives you 5 pages for a larger agency with more services.',
  },
]

/** Hero aside: what the free demo is, in three short steps. */
function DemoCard() {
  return (
    <Card className="offer-card demo-offer">
      <p className="offer-card__ribbon">Free demo, no obligation</p>
      <p className="offer-card__name">See your new website before you pay</p>
      <ol className="demo-offer__steps">
        <li>
          <span className="demo-offer__num" aria-hidden="true">
            1
          </span>
          <span>Send us the link to your current website.</span>
        </li>
        <li>
          <span className="demo-offer__num" aria-hidden="true">
            2
          </span>
          <span>We build a preview of your new site within 2 hours.</span>
        </li>
        <li>
          <span className="demo-offer__num" aria-hidden="true">
            3
          </span>
          <span>You like it? We take it live within 24 hours.</span>
        </li>
      </ol>
      <ButtonLink to={DEMO} size="lg" block>
        {DEMO_LABEL}
      </ButtonLink>
      <p className="offer-card__fine">Free and without obligation. No credit card needed.</p>
    </Card>
  )
}

export default function RealEstateRebuildPage() {
  return (
    <>
      <LandingHero
        badge="For real estate agents"
        title="Your Real Estate Website, Rebuilt in 24 Hours"
        lead="Buyers and sellers judge your agency by your website. We rebuild yours into a fast, modern site that shows your properties at their best, and you see a free demo before you decide."
        points={['Free demo of your new site', 'Live within 24 hours', '30-day money-back guarantee']}
        actions={
          <>
            <ButtonLink to={DEMO} size="lg">
              {DEMO_LABEL}
            </ButtonLink>
            <ButtonLink to="#pricing" size="lg" variant="outline">
              See Packages
            </ButtonLink>
          </>
        }
        aside={<DemoCard />}
      />

      <Section id="before-after" aria-labelledby="before-after-title">
        <SectionHead
          eyebrow="Before and after"
          title="What changes when we rebuild your site"
          titleId="before-after-title"
          text="Four problems we see on almost every agency website, and what your visitors get instead."
        />
        <ul className="ba-list">
          {beforeAfter.map((pair) => (
            <li key={pair.before} className="ba-pair">
              <p className="ba-pair__side ba-pair__side--before">
                <span className="ba-pair__icon">
                  <CloseIcon size={16} />
                </span>
                <span>
                  <span className="ba-pair__tag">Before</span>
                  {pair.before}
                </span>
              </p>
              <p className="ba-pair__side ba-pair__side--after">
                <span className="ba-pair__icon">
                  <CheckIcon size={16} />
                </span>
                <span>
                  <span className="ba-pair__tag">After</span>
                  {pair.after}
                </span>
              </p>
            </li>
          ))}
        </ul>
      </Section>

      <Section tone="muted" aria-labelledby="risk-free-title">
        <Guarantee title="Risk-free: a free demo and a 30-day money-back guarantee" titleId="risk-free-title">
          <p>
            Start with a free demo and only order when you like what you see. Once you order, your new website is live
            within 24 hours, and every package comes with a 30-day money-back guarantee.
          </p>
          <p className="risk-free__action">
            <ButtonLink to={DEMO}>{DEMO_LABEL}</ButtonLink>
          </p>
        </Guarantee>
      </Section>

      <Section id="features" aria-labelledby="features-title">
        <SectionHead
          eyebrow="Features"
          title="Built for how people buy and sell homes"
          titleId="features-title"
          text="Everything an agency website needs to turn visitors into viewings and valuations."
        />
        <IconCards items={features} columns={3} />
      </Section>

      <Section id="pricing" tone="muted" className="anchor-section" aria-labelledby="pricing-title">
        <SectionHead
          eyebrow="Packages"
          title="Pick the rebuild for your agency"
          titleId="pricing-title"
          text="One-time payment, live within 24 hours, 30-day money-back guarantee."
        />
        <PlanTiers type={TYPE} planKeys={PLANS} />
      </Section>

      {claimShown('testimonials_real_estate_rebuild') && (
        <Section aria-labelledby="testimonials-title" {...claimAttrs('testimonials_real_estate_rebuild')}>
          <SectionHead eyebrow="Testimonials" title="Agents who rebuilt with us" titleId="testimonials-title" />
          <Testimonials page="real_estate_rebuild" slots={3} />
        </Section>
      )}

      <Section id="faq" tone="muted" aria-labelledby="faq-title">
        <SectionHead eyebrow="FAQ" title="Questions from agents" titleId="faq-title" />
        <FaqAccordion items={faq} />
      </Section>

      <ClosingCta
        title="See your new website for free"
        titleId="demo-title"
        text="Send us your current website and get a free demo of the rebuild in your inbox within 2 hours. No credit card, no obligation."
        actions={
          <ButtonLink to={DEMO} size="lg">
            {DEMO_LABEL}
          </ButtonLink>
        }
      />

      <StickyMobileCta to={DEMO} label={DEMO_LABEL} note="Free demo · Live in 24h" />
    </>
  )
}
