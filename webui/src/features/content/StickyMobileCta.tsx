import type { ReactNode } from 'react'
import { ButtonLink } from '../../components/ui/Button'
import { claimAttrs, claimText, standInAttrs, standInShown, type ClaimKey } from '../../lib/claims'

export interface StickyMobileCtaProps {
  /** Exact target URL, e.g. `/start?type=ai&plan=ai-lead-engine`. */
  to: string
  label: string
  /** Short line next to the button (e.g. "30-day money-back guarantee"). */
  note?: ReactNode
  /** A claim shown as the note while it is on (`note` stays when it is off). */
  noteClaim?: ClaimKey
}

/**
 * Call-to-action bar fixed to the bottom of the viewport, shown on mobile only (< 768 px).
 * The page shell leaves room below the footer while it is there (landing.css), so the bar
 * never covers the end of the page.
 */
export function StickyMobileCta({ to, label, note, noteClaim }: StickyMobileCtaProps) {
  const claimed = noteClaim ? claimText(noteClaim) : null
  return (
    <section className="sticky-cta" aria-label="Quick action">
      {claimed !== null && noteClaim && (
        <p className="sticky-cta__note" {...claimAttrs(noteClaim)}>
          {claimed}
        </p>
      )}
      {note && (!noteClaim || standInShown(noteClaim)) && (
        <p className="sticky-cta__note" {...(noteClaim ? standInAttrs(noteClaim) : {})}>
          {note}
        </p>
      )}
      <ButtonLink to={to} className="sticky-cta__button" size="md">
        {label}
      </ButtonLink>
    </section>
  )
}
