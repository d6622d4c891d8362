import { startTransition, useEffect, useId, useState, type ReactNode } from 'react'
import { CalendarIcon } from '../../components/icons/CalendarIcon'
import { MailIcon } from '../../components/icons/MailIcon'
import { Button } from '../../components/ui/Button'
import { scrollToId } from '../../lib/scroll'
import { siteConfig } from '../../lib/site-config'

/** Only absolute http(s) addresses are ever put into the frame. */
function usableUrl(url: string): string {
  return /^https?:\/\//i.test(url) ? url : ''
}

/**
 * The scheduling provider's booking page, embedded only after the visitor asks for it: before
 * the click there is no iframe and no request to the provider (DECISIONS.md). The page is
 * framed rather than scripted because the CSP allows no third-party script.
 *
 * Returns the control (the "Show booking calendar" toggle) and the frame separately, so the
 * page can give the 700 px high calendar the full content width.
 *
 * The prerender cannot know whether a scheduling URL is configured (it renders tokens the
 * server fills in), so prerender and hydration show the button; after hydration, a site without
 * a scheduling URL swaps it for a mailto link to the contact address.
 */
export function useBookingCalendar(title: string): { control: ReactNode; frame: ReactNode } {
  const id = useId()
  const frameId = `${id}-frame`
  const [showFallback, setShowFallback] = useState(false)
  const [open, setOpen] = useState(false)
  const config = siteConfig()
  const url = usableUrl(config.schedulingUrl)

  useEffect(() => {
    // Only a site without a scheduling URL changes anything; the whole page renders again then,
    // so as a transition (in slices) rather than in one long task.
    if (!url) startTransition(() => setShowFallback(true))
  }, [url])
  useEffect(() => {
    if (open) scrollToId(frameId)
  }, [open, frameId])

  if (showFallback && !url) {
    return {
      control: (
        <p className="booking__fallback">
          <MailIcon size={20} />
          <span>
            Write to us at <a href={`mailto:${config.contactEmail}`}>{config.contactEmail}</a> and we will send you times
            for your free 30-minute consultation.
          </span>
        </p>
      ),
      frame: null,
    }
  }

  return {
    control: (
      <div className="booking__control">
        <Button
          variant={open ? 'outline' : 'primary'}
          size="lg"
          aria-expanded={open}
          aria-controls={frameId}
          onClick={() => setOpen((value) => !value)}
        >
          <CalendarIcon size={20} />
          {open ? 'Hide booking calendar' : 'Show booking calendar'}
        </Button>
        <p className="booking__privacy">The calendar comes from our scheduling provider and loads only when you open it.</p>
      </div>
    ),
    frame: (
      <div id={frameId} className="booking__frame-wrap anchor-section">
        {open && url && (
          <iframe
            className="booking__frame"
            title={title}
            src={url}
            width="100%"
            height="700"
            loading="lazy"
            referrerPolicy="strict-origin-when-cross-origin"
            sandbox="allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox"
          />
        )}
      </div>
    ),
  }
}
