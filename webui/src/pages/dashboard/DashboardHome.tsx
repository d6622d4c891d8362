import type { ComponentType } from 'react'
import { Link } from '../../lib/router'
import {
  CurrentPlanTop,
  cardLabel,
  fetchSubscription,
  formatPeriodEnd,
  isActive,
  subscriptionPlanName,
  type Subscription,
} from '../../features/billing'
import { LoadError, LoadState } from '../../components/dashboard/LoadState'
import { greeting } from '../../components/dashboard/greeting'
import { fetchWebsites, NewWebsite, WebsiteCards, type Website } from '../../features/sites'
import { BoltIcon } from '../../components/icons/BoltIcon'
import { CheckIcon } from '../../components/icons/CheckIcon'
import { GlobeIcon } from '../../components/icons/GlobeIcon'
import type { IconProps } from '../../components/icons/Icon'
import { PlusIcon } from '../../components/icons/PlusIcon'
import { RocketIcon } from '../../components/icons/RocketIcon'
import { Badge } from '../../components/ui/Badge'
import { ButtonLink } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { errorMessage } from '../../lib/api-client'
import { useAuth } from '../../lib/auth'
import { findPlan, formatPrice, loadCatalogue, planPromises, suffixAfterPrice, type Catalogue } from '../../features/catalogue'
import { useApiData } from '../../lib/use-api-data'
import { OverviewHome } from '../../features/overview'

interface Choice {
  title: string
  text: string
  plans: string[]
  to: string
  cta: string
  Icon: ComponentType<IconProps>
}

/** The three services offered to a customer without an active subscription (prices: catalogue). */
const CHOICES: Choice[] = [
  {
    title: 'Website Services',
    text: 'A fast, hosted website with a 99/100 PageSpeed score, live within 24 hours.',
    plans: ['starter', 'professional', 'premium'],
    to: '/start?type=website&plan=professional',
    cta: 'Choose a Website Plan',
    Icon: GlobeIcon,
  },
  {
    title: 'AI Automation',
    text: 'Done-for-you AI systems for support, leads and repetitive work.',
    plans: ['starter-ai', 'pro-ai', 'full-stack-ai'],
    to: '/start?type=ai&plan=pro-ai',
    cta: 'Choose an AI Package',
    Icon: BoltIcon,
  },
  {
    title: 'UGC Content',
    text: 'Creator videos for your ads and social channels, ready to post.',
    plans: ['starter-clip', 'conversion-bundle', 'scaling-stack', 'custom-campaign'],
    to: '/start?type=ugc&plan=conversion-bundle',
    cta: 'Choose a UGC Package',
    Icon: RocketIcon,
  },
]

interface Loaded {
  subscription: Subscription | null
  websites: Website[]
  catalogue: Catalogue | null
  catalogueError: string | null
}

async function loadHome(): Promise<Loaded> {
  // Without the catalogue the page still loads: the service choice shows its own error.
  const catalogue = loadCatalogue().then(
    (value) => ({ catalogue: value, catalogueError: null }),
    (err: unknown) => ({ catalogue: null, catalogueError: errorMessage(err) }),
  )
  const [subscription, websites, cat] = await Promise.all([fetchSubscription(), fetchWebsites(), catalogue])
  return { subscription, websites, ...cat }
}

/** /dashboard: an admin's home is the business overview (its own lazy chunk), a customer's their plan and websites. */
export default function DashboardHomePage() {
  const { user } = useAuth()
  if (!user) return null // the dashboard shell renders pages for a signed-in user only
  return user.role === 'admin' ? <OverviewHome /> : <CustomerHome />
}

function CustomerHome() {
  const { user } = useAuth()
  const home = useApiData('dashboard-home', loadHome)

  if (!user) return null
  const active = home.data !== null && isActive(home.data.subscription)

  return (
    <div className="dash-page dash-home">
      <div className="dash-home__head">
        <div>
          <h1 className="dash-page__title">{greeting(user)}</h1>
          <p className="dash-page__text">
            {active ? 'Your plan and your websites at a glance.' : 'Your services and websites at a glance.'}
          </p>
        </div>
        {active && (
          <NewWebsite
            subscription={home.data?.subscription}
            planName={home.data ? subscriptionPlanName(home.data.subscription, home.data.catalogue) : null}
            className="dash-home__new"
          >
            <PlusIcon size={18} />
            New Website
          </NewWebsite>
        )}
      </div>

      <LoadState state={home} loading="Loading your dashboard" failed="We could not load your dashboard.">
        {(data) => (
          <>
            {active && data.subscription ? (
              <CurrentPlanCard subscription={data.subscription} catalogue={data.catalogue} />
            ) : (
              <ChooseService catalogue={data.catalogue} catalogueError={data.catalogueError} onRetry={home.reload} />
            )}
            {(active || data.websites.length > 0) && (
              <section className="dash-section" aria-labelledby="your-websites">
                <h2 id="your-websites" className="dash-section__title">
                  Your Websites
                </h2>
                <WebsiteCards
                  websites={data.websites}
                  subscription={data.subscription}
                  planName={subscriptionPlanName(data.subscription, data.catalogue)}
                />
              </section>
            )}
          </>
        )}
      </LoadState>
    </div>
  )
}

function CurrentPlanCard({ subscription, catalogue }: { subscription: Subscription; catalogue: Catalogue | null }) {
  const active = isActive(subscription)
  const name = subscriptionPlanName(subscription, catalogue) ?? 'Your plan'
  const card = cardLabel(subscription.payment_method_brand, subscription.payment_method_last4)
  return (
    <section className="dash-section" aria-labelledby="current-plan">
      <Card className="plan-card dash-card">
        <CurrentPlanTop headingId="current-plan" active={active} />
        <p className="plan-card__name">
          <span className="plan-card__check">
            <CheckIcon size={18} />
          </span>
          {name}
        </p>
        <dl className="plan-card__facts">
          <div>
            <dt>{subscription.cancel_at_period_end ? 'Ends on' : 'Next billing date'}</dt>
            <dd>{formatPeriodEnd(subscription.current_period_end)}</dd>
          </div>
          <div>
            <dt>Payment method</dt>
            <dd>{card ?? 'No card on file'}</dd>
          </div>
        </dl>
        {subscription.cancel_at_period_end && (
          <p className="plan-card__note">Your subscription ends on the date above and will not renew.</p>
        )}
        <Link to="/dashboard/billing" className="plan-card__manage">
          Manage subscription
        </Link>
      </Card>
    </section>
  )
}

function ChooseService({
  catalogue,
  catalogueError,
  onRetry,
}: {
  catalogue: Catalogue | null
  catalogueError: string | null
  onRetry: () => void
}) {
  return (
    <section className="dash-section" aria-labelledby="choose-service">
      <h2 id="choose-service" className="dash-section__title">
        Choose Your Service
      </h2>
      <p className="dash-section__text">Pick what you need. Our team starts as soon as your order is in.</p>
      {catalogue === null ? (
        <LoadError title="We could not load the packages." onRetry={onRetry}>
          {catalogueError}
        </LoadError>
      ) : (
        <ul className="choice-grid">
          {CHOICES.map((choice) => (
            <li key={choice.title}>
              <ChoiceCard choice={choice} catalogue={catalogue} />
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

function ChoiceCard({ choice, catalogue }: { choice: Choice; catalogue: Catalogue }) {
  const { title, text, Icon } = choice
  const plans = choice.plans.map((key) => findPlan(catalogue, key)).filter((p) => p !== undefined)
  return (
    <Card className="choice-card">
      <span className="icon-tile">
        <Icon />
      </span>
      <h3 className="choice-card__title">{title}</h3>
      <p className="choice-card__text">{text}</p>
      <ul className="choice-card__plans">
        {plans.map((plan) => (
          <li key={plan.key} className="choice-plan">
            <div className="choice-plan__head">
              <span className="choice-plan__name">
                {plan.name}
                {plan.badge === 'popular' && (
                  <Badge tone="purple" className="choice-plan__badge">
                    Popular
                  </Badge>
                )}
              </span>
              <span className="choice-plan__price">
                {formatPrice(plan.price, plan.currency)}
                <span className="choice-plan__suffix">{suffixAfterPrice(plan)}</span>
              </span>
            </div>
            <p className="choice-plan__desc">{plan.description}</p>
            {/* The package's own delivery promise and guarantee, from the catalogue. */}
            {planPromises(plan) && <p className="choice-plan__terms">{planPromises(plan)}</p>}
          </li>
        ))}
      </ul>
      <ButtonLink to={choice.to} block className="choice-card__cta">
        {choice.cta}
      </ButtonLink>
    </Card>
  )
}
