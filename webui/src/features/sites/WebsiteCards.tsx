import { useState } from 'react'
import { Link } from '../../lib/router'
import { GlobeIcon } from '../../components/icons/GlobeIcon'
import { PlusIcon } from '../../components/icons/PlusIcon'
import { Badge } from '../../components/ui/Badge'
import { Button, ButtonLink } from '../../components/ui/Button'
import { ErrorBox } from '../../components/ui/ErrorBox'
import { BILLING_PATH, removeText, scoreBand, websiteStatusTone, type Website } from './sites'
import { NewWebsite } from './NewWebsite'
import type { Subscription } from '../billing'
import { isActive } from '../billing'
import { errorMessage } from '../../lib/api-client'
import { cx } from '../../lib/cx'
import './sites.css'

export interface WebsiteCardsProps {
  websites: Website[]
  /** When given (the websites page), each card offers 'Remove', confirmed first. */
  onRemove?: (site: Website) => Promise<void>
  /** The customer's subscription: "Create a new website" and 'Remove' say what it means for it. */
  subscription?: Subscription | null
  /** The subscription's plan name as the page shows it. */
  planName?: string | null
}

/** "Your Websites": one card per website and a dashed tile to order a new one. */
export function WebsiteCards({ websites, onRemove, subscription, planName }: WebsiteCardsProps) {
  const subscribed = isActive(subscription) ? (planName ?? subscription.plan_name ?? '') : null
  return (
    <ul className="site-grid">
      {websites.map((site) => (
        <li key={site.id}>
          <WebsiteCard site={site} onRemove={onRemove} subscribed={subscribed} />
        </li>
      ))}
      <li>
        <NewWebsite look="tile" subscription={subscription} planName={planName}>
          <span className="site-card__new-icon">
            <PlusIcon size={24} />
          </span>
          Create a new website
        </NewWebsite>
      </li>
    </ul>
  )
}

interface CardProps {
  site: Website
  onRemove?: (site: Website) => Promise<void>
  subscribed: string | null
}

function WebsiteCard({ site, onRemove, subscribed }: CardProps) {
  const score = typeof site.page_speed === 'number' ? Math.max(0, Math.min(100, Math.round(site.page_speed))) : null
  const band = scoreBand(score)
  const label = `Page speed score for ${site.domain}`
  const measuring = site.measuring === true && score === null
  return (
    <article className="site-card card">
      <div className="site-card__head">
        <span className="site-card__icon">
          <GlobeIcon size={20} />
        </span>
        <div className="site-card__title">
          <h3 className="site-card__domain">{site.domain}</h3>
          <Badge tone={websiteStatusTone(site.status)} className={cx('status-badge', `status-badge--${site.status}`)}>
            {site.status.toUpperCase()}
          </Badge>
        </div>
      </div>
      <div className="site-card__score">
        <p className="site-card__score-row">
          <span>Page speed</span>
          <span className={cx('site-card__score-value', `score--${band}`, measuring && 'site-card__score-value--measuring')}>
            {measuring ? 'Measuring…' : score === null ? 'N/A' : <>{score}<span className="site-card__score-max">/100</span></>}
          </span>
        </p>
        {measuring ? (
          <>
            <progress className="score-bar score-bar--none" max={100} aria-label={label} aria-valuetext="Being measured" />
            <p className="site-card__measuring">Measuring your new site. Its score appears here when the speed test ends.</p>
          </>
        ) : (
          <progress
            className={cx('score-bar', `score-bar--${band}`)}
            max={100}
            value={score ?? 0}
            aria-label={label}
            aria-valuetext={score === null ? 'N/A' : `${score} out of 100`}
          />
        )}
      </div>
      <Link to={`/dashboard/websites/${site.id}`} className="site-card__link">
        View details<span className="visually-hidden"> of {site.domain}</span>
      </Link>
      {onRemove && <RemoveSite site={site} onRemove={onRemove} subscribed={subscribed} />}
    </article>
  )
}

/**
 * 'Remove' on a card, then a confirmation in place: the site leaves the list (the agency keeps
 * its record). It says what removing does not do: cancel the subscription or change hosting;
 * with a running subscription it sends the customer to Billing to cancel it first.
 */
function RemoveSite({ site, onRemove, subscribed }: { site: Website; onRemove: (site: Website) => Promise<void>; subscribed: string | null }) {
  const [asking, setAsking] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  if (!asking) {
    return (
      <Button size="sm" variant="ghost" className="site-card__remove" onClick={() => setAsking(true)}>
        Remove<span className="visually-hidden"> {site.domain}</span>
      </Button>
    )
  }
  const confirm = () => {
    setBusy(true)
    setError(null)
    onRemove(site).catch((err: unknown) => {
      setError(errorMessage(err))
      setBusy(false)
    })
  }
  return (
    <div className="site-card__confirm" role="group" aria-label={`Remove ${site.domain}`}>
      <p>{removeText(site, subscribed)}</p>
      {error && <ErrorBox>{error}</ErrorBox>}
      <div className="site-card__confirm-actions">
        {subscribed !== null && (
          <ButtonLink to={BILLING_PATH} size="sm">
            Go to Billing
          </ButtonLink>
        )}
        <Button size="sm" variant="danger" busy={busy} onClick={confirm}>
          {subscribed !== null ? 'Remove from list only' : 'Yes, remove it'}
        </Button>
        <Button size="sm" variant="outline" disabled={busy} onClick={() => setAsking(false)}>
          Cancel
        </Button>
      </div>
    </div>
  )
}
