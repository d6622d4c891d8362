import { useState } from 'react'
import { Link } from '../../lib/router'
import { GlobeIcon } from '../../components/icons/GlobeIcon'
import { PlusIcon } from '../../components/icons/PlusIcon'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { ErrorBox } from '../../components/ui/ErrorBox'
import { scoreBand, websiteStatusTone, type Website } from './sites'
import { errorMessage } from '../../lib/api-client'
import { cx } from '../../lib/cx'

export interface WebsiteCardsProps {
  websites: Website[]
  /** When given (the websites page), each card offers 'Remove', confirmed first. */
  onRemove?: (site: Website) => Promise<void>
}

/** "Your Websites": one card per website and a dashed tile to order a new one. */
export function WebsiteCards({ websites, onRemove }: WebsiteCardsProps) {
  return (
    <ul className="site-grid">
      {websites.map((site) => (
        <li key={site.id}>
          <WebsiteCard site={site} onRemove={onRemove} />
        </li>
      ))}
      <li>
        <Link to="/start?type=website" className="site-card site-card--new">
          <span className="site-card__new-icon">
            <PlusIcon size={24} />
          </span>
          Create a new website
        </Link>
      </li>
    </ul>
  )
}

function WebsiteCard({ site, onRemove }: { site: Website; onRemove?: (site: Website) => Promise<void> }) {
  const score = typeof site.page_speed === 'number' ? Math.max(0, Math.min(100, Math.round(site.page_speed))) : null
  const band = scoreBand(score)
  const label = `Page speed score for ${site.domain}`
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
          <span className={cx('site-card__score-value', `score--${band}`)}>
            {score === null ? 'N/A' : <>{score}<span className="site-card__score-max">/100</span></>}
          </span>
        </p>
        <progress
          className={cx('score-bar', `score-bar--${band}`)}
          max={100}
          value={score ?? 0}
          aria-label={label}
          aria-valuetext={score === null ? 'N/A' : `${score} out of 100`}
        />
      </div>
      <Link to={`/dashboard/websites/${site.id}`} className="site-card__link">
        View details<span className="visually-hidden"> of {site.domain}</span>
      </Link>
      {onRemove && <RemoveSite site={site} onRemove={onRemove} />}
    </article>
  )
}

/** 'Remove' on a card, then a confirmation in place: the site leaves the list (the agency keeps its record). */
function RemoveSite({ site, onRemove }: { site: Website; onRemove: (site: Website) => Promise<void> }) {
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
      <p>Remove {site.domain} from your websites? This cannot be undone here.</p>
      {error && <ErrorBox>{error}</ErrorBox>}
      <div className="site-card__confirm-actions">
        <Button size="sm" variant="danger" busy={busy} onClick={confirm}>
          Yes, remove it
        </Button>
        <Button size="sm" variant="outline" disabled={busy} onClick={() => setAsking(false)}>
          Cancel
        </Button>
      </div>
    </div>
  )
}
