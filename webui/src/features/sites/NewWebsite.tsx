import { useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { Link } from '../../lib/router'
import { Button, ButtonLink, type ButtonSize } from '../../components/ui/Button'
import { fetchSubscription, isActive, type Subscription } from '../billing'
import { useApiData } from '../../lib/use-api-data'
import { cx } from '../../lib/cx'
import './sites.css'
import { NEW_WEBSITE_PATH, secondSubscriptionText } from './sites'

export interface NewWebsiteProps {
  /** The customer's subscription (billing's); null for none, undefined while not known. */
  subscription: Subscription | null | undefined
  /** The plan's name as the page shows it (else the subscription's). */
  planName?: string | null
  /** 'button' (a page's "New Website") or 'tile' (the dashed card after the website cards). */
  look?: 'button' | 'tile'
  size?: ButtonSize
  className?: string
  children: ReactNode
}

/**
 * "New Website": straight to the website plans, or, for a customer whose subscription runs,
 * first a note in place that a new website starts a second subscription, with "See website
 * plans" and "Cancel" (Escape closes it too).
 */
export function NewWebsite({ subscription, planName, look = 'button', size, className, children }: NewWebsiteProps) {
  const [asking, setAsking] = useState(false)
  const noteId = useId()
  const note = useRef<HTMLDivElement>(null)
  const opener = useRef<HTMLButtonElement>(null)
  const wasAsking = useRef(false)
  useEffect(() => {
    if (asking) note.current?.focus()
    else if (wasAsking.current) opener.current?.focus()
    wasAsking.current = asking
  }, [asking])
  useEffect(() => {
    if (!asking) return
    const close = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setAsking(false)
    }
    document.addEventListener('keydown', close)
    return () => document.removeEventListener('keydown', close)
  }, [asking])

  if (!isActive(subscription)) {
    return look === 'tile' ? (
      <Link to={NEW_WEBSITE_PATH} className={cx('site-card site-card--new', className)}>
        {children}
      </Link>
    ) : (
      <ButtonLink to={NEW_WEBSITE_PATH} size={size} className={className}>
        {children}
      </ButtonLink>
    )
  }
  const name = planName ?? subscription.plan_name
  const notice = (
    <div
      ref={note}
      id={noteId}
      className="new-site-note card"
      role="group"
      aria-label="A new website"
      tabIndex={-1}
    >
      <p className="new-site-note__text">{secondSubscriptionText(name)}</p>
      <div className="new-site-note__actions">
        <ButtonLink to={NEW_WEBSITE_PATH} size="sm">
          See website plans
        </ButtonLink>
        <Button size="sm" variant="outline" onClick={() => setAsking(false)}>
          Cancel
        </Button>
      </div>
    </div>
  )
  if (look === 'tile') {
    return asking ? (
      notice
    ) : (
      <button ref={opener} type="button" className={cx('site-card site-card--new', className)} aria-expanded={false} onClick={() => setAsking(true)}>
        {children}
      </button>
    )
  }
  return (
    <span className="new-site">
      <Button ref={opener} size={size} className={className} aria-expanded={asking} aria-controls={asking ? noteId : undefined} onClick={() => setAsking(!asking)}>
        {children}
      </Button>
      {asking && notice}
    </span>
  )
}

/** The signed-in customer's subscription for "New Website" and "Remove": null for none,
 * undefined while loading or when it could not be read. */
export function useSubscription(): Subscription | null | undefined {
  const loaded = useApiData('billing-subscription', async () => ({ subscription: await fetchSubscription() }))
  return loaded.data ? loaded.data.subscription : undefined
}
