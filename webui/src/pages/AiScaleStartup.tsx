/**
 * The AI content engine pages /ai-scale-startup, /ai-scale-startup2, /ai-scale-startup3 and
 * /ai-scale-startup4: one page, four routes. The plan each route sells is configuration
 * (`contentEnginePlan`); at prerender it is a token the server replaces, so the key is used as
 * it comes (links and the price) and never branched on while rendering.
 */
import { useLocation } from 'react-router-dom'
import { CalendarIcon } from '../components/icons/CalendarIcon'
import { CheckIcon } from '../components/icons/CheckIcon'
import { ClockIcon } from '../components/icons/ClockIcon'
import { LightbulbIcon } from '../components/icons/LightbulbIcon'
import { ShieldIcon } from '../components/icons/ShieldIcon'
import { UsersIcon } from '../components/icons/UsersIcon'
import { VideoIcon } from '../components/icons/VideoIcon'
import {
  Claim,
  claimAttrs,
  claimShown,
  claimText,
  ContentRoiCalculator,
  type RoiPlan,
  ClosingCta,
  FactList,
  OfferCard,
  type Fact,
  FaqAccordion,
  type FaqItem,
  HeroVideo,
  SectionHead,
  StickyMobileCta,
  Testimonials,
  startUrl,
  formatEuro,
} from '../features/content'
import { OfferPrice, priceWithSuffix, usePlan, type Plan } from '../features/catalogue'
import { Badge } from '../components/ui/Badge'
import { ButtonLink } from '../components/ui/Button'
import { Card } from '../components/ui/Card'
import { Container, Section } from '../components/ui/Section'
import { contentEnginePlan } from '../lib/site-config'

const CTA_LABEL = 'Start My Content Engine'

const benefits: readonly string[] = [
  '30 short videos and posts from a single idea, delivered within 24 hours',
  'Written and cut in your voice, for LinkedIn, Instagram, TikTok, YouTube Shorts and X',
  'Approval control: nothing goes out until you approve it, edit it or send it back',
  'Scheduling built in: approved pieces are queued at the best times for each channel',
  'Hooks, captions and hashtags prepared for every platform',
  'No filming days, no agency retainer, no content calendar to babysit',
]

/** Marketing value of what the engine replaces (page figures, not catalogue prices). */
const valueStack: readonly { item: string; detail: string; value: number }[] = [
  { item: '30 short-form videos', detail: 'Scripted, cut and captioned from your idea', value: 1500 },
  { item: '30 platform-ready posts', detail: 'LinkedIn, Instagram, X and more, each written for its channel', value: 900 },
  { item: 'Brand voice setup', detail: 'The engine learns how you speak from your own material', value: 600 },
  { item: 'Approval workspace', detail: 'Approve, edit or reject every piece before it goes live', value: 450 },
  { item: 'Scheduling across your channels', detail: 'A month of posts queued at the right times', value: 400 },
  { item: 'Hook variations for testing', detail: 'Three opening lines per video to find what stops the scroll', value: 250 },
  { item: 'Content strategy call', detail: 'We turn your idea into angles that sell your product', value: 150 },
]
const TOTAL_VALUE = valueStack.reduce((sum, row) => sum + row.value, 0)

const faq: readonly FaqItem[] = [
  {
    question: 'What do I need to give you?',
    answer:
      'One idea: a voice memo, a few bullet points or a link to something you wrote. Add your logo and two or three past posts you like, and the engine has what it needs to match your voice.',
  },
  {
    question: 'How do the 24 hours work?',
    answer:
      'The clock starts when we have your idea. Within 24 hours your 30 videos and posts are in your approval workspace, ready for you to approve, edit or send back.',
  },
  {
    question: 'Does anything get published without me?',
    answer:
      'No. Every piece waits for your approval. Only what you approve is scheduled, and you can move or cancel any scheduled post until it goes out.',
  },
  {
    question: 'What if it does not work for me?',
    answer:
      'You are covered by a 30-day money-back guarantee. If the content engine does not save you time, tell us within 30 days and you get your money back.',
  },
]

const pricingFacts: readonly Fact[] = [
  [VideoIcon, '30 videos and posts from one idea'],
  [ClockIcon, 'Delivered within 24 hours'],
  [CheckIcon, 'Approval control and scheduling included'],
  [ShieldIcon, '30-day money-back guarantee'],
]

const closingPoints: readonly Fact[] = [
  [ClockIcon, 'Delivered in 24h'],
  [UsersIcon, 'You approve every piece'],
  [ShieldIcon, '30-day money-back guarantee'],
]

/** The ROI calculator's plan: the real price of the plan the route sells. */
function roiPlan(plan: Plan | undefined): RoiPlan | undefined {
  if (!plan) return undefined
  return { name: plan.name, price: plan.price, priceLabel: priceWithSuffix(plan), oneTime: plan.mode === 'payment' }
}

function PricingCard({ plan, cta }: { plan: string; cta: string }) {
  const { plan: details } = usePlan(plan)
  return (
    <OfferCard
      className="ce-offer"
      ribbonClassName="ce-offer__slots"
      ribbonClaim="ai_scale_slots"
      ribbon={
        <>
          <ClockIcon size={16} />
          {claimText('ai_scale_slots')}
        </>
      }
      name="Your AI Content Engine"
      nameId="pricing-title"
      facts={pricingFacts}
      to={cta}
      action={CTA_LABEL}
      fine="Secure checkout. You approve every piece before anything is published."
    >
      <p className="ce-offer__plan">{details?.name}</p>
      <OfferPrice planKey={plan} />
    </OfferCard>
  )
}

export default function AiScaleStartupPage() {
  const { pathname } = useLocation()
  // The server serves the page with or without a trailing slash; the setting is keyed by route.
  const plan = contentEnginePlan(pathname.replace(/(.)\/+$/, '$1'))
  const cta = startUrl('ai-scale', plan)
  const { plan: details } = usePlan(plan)

  return (
    <>
      <section className="ce-hero" aria-labelledby="ce-hero-title">
        <HeroVideo
          poster="/media/content-engine-poster.webp"
          posterWidth={640}
          posterHeight={360}
          webm="/media/content-engine-loop.webm"
          mp4="/media/content-engine-loop.mp4"
        />
        <Container className="ce-hero__grid">
          <div className="ce-hero__copy">
            <Badge tone="purple">AI content engine for founders</Badge>
            <h1 id="ce-hero-title" className="ce-hero__title">
              30 Videos and Posts in 24h From One Idea
            </h1>
            <p className="ce-hero__lead">
              Give us one idea. Your AI content engine turns it into a month of short videos and posts in your voice, waits
              for your approval and schedules everything you approve.
            </p>
            <div className="ce-hero__actions">
              <ButtonLink to={cta} size="lg">
                {CTA_LABEL}
              </ButtonLink>
              <ButtonLink to="#pricing" size="lg" variant="outline" className="ce-hero__secondary">
                See Pricing
              </ButtonLink>
            </div>
            <ul className="ce-hero__proof" aria-label="In numbers">
              <Claim claim="ai_scale_founders" as="li">
                {(figure) => (
                  <>
                    <strong>{figure}</strong> founders
                  </>
                )}
              </Claim>
              <Claim claim="ai_scale_posts" as="li">
                {(figure) => (
                  <>
                    <strong>{figure}</strong> posts published
                  </>
                )}
              </Claim>
              <Claim claim="ai_scale_roi" as="li">
                {(figure) => (
                  <>
                    <strong>{figure}</strong> average ROI
                  </>
                )}
              </Claim>
              <li>
                <strong>24h</strong> delivery
              </li>
            </ul>
          </div>
          <div className="ce-flow">
            <p className="ce-flow__title">From one idea to a month of content</p>
            <ol className="ce-flow__list">
              <li className="flow-visual__row">
                <LightbulbIcon size={20} />
                <span>Your idea, as a voice memo or notes</span>
                <Badge tone="blue" className="flow-visual__tag">
                  0h
                </Badge>
              </li>
              <li className="flow-visual__row">
                <VideoIcon size={20} />
                <span>30 videos and posts in your voice</span>
                <Badge tone="purple" className="flow-visual__tag">
                  24h
                </Badge>
              </li>
              <li className="flow-visual__row">
                <CheckIcon size={20} />
                <span>You approve, edit or send back</span>
                <Badge tone="green" className="flow-visual__tag">
                  You decide
                </Badge>
              </li>
              <li className="flow-visual__row">
                <CalendarIcon size={20} />
                <span>Scheduled across your channels</span>
                <Badge tone="yellow" className="flow-visual__tag">
                  30 days
                </Badge>
              </li>
            </ol>
          </div>
        </Container>
      </section>

      <Section id="benefits" aria-labelledby="benefits-title">
        <SectionHead
          eyebrow="What you get"
          title="A content team’s output, without the content team"
          titleId="benefits-title"
          text="Founders know they should post every day. The engine makes it possible without giving up your evenings."
        />
        <ul className="ce-benefits">
          {benefits.map((benefit) => (
            <li key={benefit} className="ce-benefits__item">
              <CheckIcon size={20} className="check-list__icon" />
              {benefit}
            </li>
          ))}
        </ul>
      </Section>

      <Section id="value" tone="muted" aria-labelledby="value-title">
        <SectionHead
          eyebrow="Everything included"
          title="What you would pay to get this done"
          titleId="value-title"
          text="Hired separately from freelancers and agencies, the same output adds up quickly."
        />
        <Card className="ce-stack">
          <ul className="ce-stack__list">
            {valueStack.map((row) => (
              <li key={row.item} className="ce-stack__row">
                <CheckIcon size={20} className="check-list__icon" />
                <span className="ce-stack__item">
                  <span className="ce-stack__name">{row.item}</span>
                  <span className="ce-stack__detail">{row.detail}</span>
                </span>
                <span className="ce-stack__value">{formatEuro(row.value)}</span>
              </li>
            ))}
          </ul>
          <p className="ce-stack__total" data-testid="value-total">
            <span>Total value</span>
            <span className="ce-stack__total-value">{formatEuro(TOTAL_VALUE)}</span>
          </p>
          <div className="ce-stack__price">
            <p className="ce-stack__price-label">Your price</p>
            <OfferPrice planKey={plan} size="md" />
          </div>
          <ButtonLink to={cta} size="lg" block>
            {CTA_LABEL}
          </ButtonLink>
        </Card>
      </Section>

      {claimShown('testimonials_ai_scale_startup') && (
        <Section aria-labelledby="testimonials-title" {...claimAttrs('testimonials_ai_scale_startup')}>
          <SectionHead eyebrow="Founders using it" title="One idea in, a month of content out" titleId="testimonials-title" />
          <Testimonials page="ai_scale_startup" slots={3} />
        </Section>
      )}

      <Section id="roi" tone="muted" className="anchor-section" aria-labelledby="roi-title">
        <SectionHead
          eyebrow="ROI calculator"
          title="What your content hours are worth"
          titleId="roi-title"
          text="Enter the time you spend on content today and what an hour of your time is worth."
        />
        <Card className="calc-card">
          <ContentRoiCalculator plan={roiPlan(details)} />
        </Card>
      </Section>

      <Section id="pricing" className="anchor-section" aria-labelledby="pricing-title">
        <div className="section-head">
          <p className="section-head__eyebrow">Pricing</p>
          <p className="section-head__text">Everything in the value stack, for one price.
            <Claim claim="ai_scale_slots">{() => ' Only a few engines are set up each week.'}</Claim>
          </p>
        </div>
        <div className="offer-card--wide">
          <PricingCard plan={plan} cta={cta} />
        </div>
      </Section>

      <Section id="faq" tone="muted" aria-labelledby="faq-title">
        <SectionHead eyebrow="FAQ" title="Questions founders ask" titleId="faq-title" />
        <FaqAccordion items={faq} />
      </Section>

      <ClosingCta
        title="Your next idea could be a month of content by tomorrow"
        text={
          <>
            <Claim claim="ai_scale_founders">{(figure) => `Join ${figure} founders who post every day without filming days. `}</Claim>
            <Claim claim="ai_scale_slots">{(slots) => `${slots}.`}</Claim>
          </>
        }
      >
        <div className="closing-cta__actions">
          <ButtonLink to={cta} size="lg">
            {CTA_LABEL}
          </ButtonLink>
        </div>
        <FactList items={closingPoints} className="closing-cta__points" />
      </ClosingCta>

      <StickyMobileCta to={cta} label="Start Now" noteClaim="ai_scale_slots" />
    </>
  )
}
