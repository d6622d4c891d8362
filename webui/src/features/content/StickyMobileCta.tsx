import { ButtonLink } from '../../components/ui/Button'

export interface StickyMobileCtaProps {
  /** Exact target URL, e.g. `/start?type=ai&plan=ai-lead-engine`. */
  to: string
  label: string
  /** Short line next to the button (e.g. "30-day money-back guarantee"). */
  note?: string
}

/**
 * Call-to-action bar fixed to the bottom of the viewport, shown on mobile only (< 768 px).
 * The page shell leaves room below the footer while it is there (landing.css), so the bar
 * never covers the end of the page.
 */
export function StickyMobileCta({ to, label, note }: StickyMobileCtaProps) {
  return (
    <div className="sticky-cta" role="region" aria-label="Quick action">
      {note && <p className="sticky-cta__note">{note}</p>}
      <ButtonLink to={to} className="sticky-cta__button" size="md">
        {label}
      </ButtonLink>
    </div>
  )
}
