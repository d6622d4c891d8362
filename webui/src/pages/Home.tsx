import type { ComponentType, ReactNode } from 'react'
import {
  BoltIcon,
  CheckIcon,
  ClockIcon,
  CodeIcon,
  FormIcon,
  GaugeIcon,
  HandshakeIcon,
  LayersIcon,
  MailIcon,
  PaletteIcon,
  RocketIcon,
  SearchIcon,
  ServerIcon,
  type IconProps,
} from '../components/icons/index'
import { HomePricing } from '../features/catalogue'
import { Claim, claimAttrs, claimShown, ClosingCta, SectionHead, TestimonialCarousel } from '../features/content'
import { Badge } from '../components/ui/Badge'
import { ButtonLink } from '../components/ui/Button'
import { Card } from '../components/ui/Card'
import { Container, Section } from '../components/ui/Section'

interface InfoCard {
  title: string
  text: ReactNode
  Icon: ComponentType<IconProps>
}

const stats = [
  { value: '99', label: 'PageSpeed Score' },
  { value: '1d', label: 'Launch Time' },
  { value: '∞', label: 'Free Hosting' },
]

const steps: InfoCard[] = [
  { title: 'Fill Form', text: 'Tell us about your business, your style and your goals in a short form.', Icon: FormIcon },
  { title: 'We Build', text: 'Our team designs and builds your website, tuned for speed and search.', Icon: CodeIcon },
  { title: 'Go Live', text: 'Your website goes live on your domain within 24 hours, hosting included.', Icon: RocketIcon },
]

const features: InfoCard[] = [
  { title: '99/100 PageSpeed Score', text: 'Lightning-fast pages keep visitors on your site and help you rank on Google.', Icon: GaugeIcon },
  { title: 'Live Within 24 Hours', text: 'Your website is designed, built and online within a day.', Icon: ClockIcon },
  { title: 'All-in-One Solution', text: 'Design, hosting, domain setup, e-mail automation and SEO in one subscription.', Icon: LayersIcon },
  {
    title: 'Free Hosting Forever',
    text: (
      <>
        Fast, secure hosting is included<Claim claim="hosting_savings">{(saving) => ` and ${saving}`}</Claim>.
      </>
    ),
    Icon: ServerIcon,
  },
  { title: '100% Done-For-You', text: 'No coding, no plugins, no page builders. We take care of everything.', Icon: HandshakeIcon },
  { title: 'Premium Designs', text: 'Modern, mobile-first designs made to turn visitors into customers.', Icon: PaletteIcon },
  { title: 'Email Automation', text: 'Capture leads and follow up automatically with built-in e-mail flows.', Icon: MailIcon },
  { title: 'SEO Optimized', text: 'Clean code, meta tags and structured data so customers can find you.', Icon: SearchIcon },
]

/** Decorative browser mock-up standing in for the hero image. */
function HeroVisual() {
  return (
    <div className="hero-visual" aria-hidden="true">
      <div className="hero-visual__window">
        <div className="hero-visual__chrome">
          <span />
          <span />
          <span />
          <span className="hero-visual__url">yourbusiness.eu</span>
        </div>
        <div className="hero-visual__page">
          <div className="hero-visual__nav" />
          <div className="hero-visual__headline" />
          <div className="hero-visual__line" />
          <div className="hero-visual__line hero-visual__line--short" />
          <div className="hero-visual__cta" />
          <div className="hero-visual__tiles">
            <div />
            <div />
            <div />
          </div>
        </div>
        <div className="hero-visual__score">
          <svg viewBox="0 0 36 36" width="64" height="64" focusable="false">
            <circle className="hero-visual__ring-bg" cx="18" cy="18" r="15.5" />
            <circle className="hero-visual__ring" cx="18" cy="18" r="15.5" pathLength="100" />
          </svg>
          <span className="hero-visual__score-value">99</span>
        </div>
      </div>
      <p className="hero-visual__tag">
        <BoltIcon size={16} />
        Live &amp; Lightning Fast
      </p>
    </div>
  )
}

function CardGrid({ items, columns, numbered = false }: { items: InfoCard[]; columns: 3 | 4; numbered?: boolean }) {
  return (
    <ul className={`card-grid card-grid--${columns}`}>
      {items.map(({ title, text, Icon }, index) => (
        <li key={title}>
          <Card className="info-card">
            <div className="info-card__head">
              <span className="icon-tile">
                <Icon />
              </span>
              {numbered && <span className="info-card__step">Step {index + 1}</span>}
            </div>
            <h3 className="info-card__title">{title}</h3>
            <p className="info-card__text">{text}</p>
          </Card>
        </li>
      ))}
    </ul>
  )
}

export default function HomePage() {
  return (
    <>
      <section className="hero">
        <Container className="hero__grid">
          <div className="hero__copy">
            <Badge tone="purple" className="hero__badge">
              <CheckIcon size={14} />
              99/100 PageSpeed. No coding. No plugins.
            </Badge>
            <h1 className="hero__title">Your Website. Live in 24 Hours.</h1>
            <p className="hero__lead">
              We design, build and host a fast website for your business. Fill in one form and your site goes live
              within 24 hours, done for you.
            </p>
            <ul className="stat-chips" aria-label="Highlights">
              {stats.map((stat) => (
                <li key={stat.label} className="stat-chip">
                  <span className="stat-chip__value">{stat.value}</span>
                  <span className="stat-chip__label">{stat.label}</span>
                </li>
              ))}
            </ul>
            <div className="hero__actions">
              <ButtonLink to="/start" size="lg">
                Get Your Website Now
              </ButtonLink>
              <ButtonLink to="/#how-it-works" size="lg" variant="outline">
                See How It Works
              </ButtonLink>
            </div>
          </div>
          <HeroVisual />
        </Container>
      </section>

      <Section id="how-it-works" className="anchor-section" aria-labelledby="how-it-works-title">
        <SectionHead
          eyebrow="How it works"
          title="Three steps to your new website"
          titleId="how-it-works-title"
          text="You tell us what you need. We do the rest."
        />
        <CardGrid items={steps} columns={3} numbered />
      </Section>

      <Section id="features" tone="muted" className="anchor-section" aria-labelledby="features-title">
        <SectionHead
          eyebrow="Features"
          title="Everything your website needs, included"
          titleId="features-title"
          text="Fast, good-looking and found on Google, without you touching a line of code."
        />
        <CardGrid items={features} columns={4} />
      </Section>

      {claimShown('testimonials_home') && (
        <Section aria-labelledby="testimonials-title" {...claimAttrs('testimonials_home')}>
          <SectionHead
            eyebrow="Testimonials"
            title="Small businesses with fast websites"
            titleId="testimonials-title"
            text="What owners say after their new site went live."
          />
          <TestimonialCarousel page="home" slots={4} label="Customer testimonials" />
        </Section>
      )}

      <Section id="pricing" tone="muted" className="anchor-section" aria-labelledby="pricing-title">
        <SectionHead
          eyebrow="Pricing"
          title="Simple monthly plans"
          titleId="pricing-title"
          text="Every website plan includes hosting, a 99/100 PageSpeed score and launch within 24 hours. Pick the plan that fits your business."
        />
        <HomePricing />
      </Section>

      <ClosingCta
        title="Ready for a website that works as fast as you do?"
        titleId="closing-cta-title"
        text="Tell us about your business today and your new website goes live within 24 hours, hosting included."
        actions={
          <>
            <ButtonLink to="/start" size="lg">
              Get Started Now
            </ButtonLink>
            <ButtonLink to="/#pricing" size="lg" variant="outline">
              View Plans
            </ButtonLink>
          </>
        }
      />
    </>
  )
}
