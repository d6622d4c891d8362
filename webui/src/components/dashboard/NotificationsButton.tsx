import { useCallback, useEffect, useId, useRef, useState } from 'react'
import { useLocation } from 'react-router-dom'
import { BellIcon } from '../icons/BellIcon'
import { usePopover } from './usePopover'

/** Bell with a small red dot; opens a short panel (no notification feed exists yet). */
export function NotificationsButton() {
  const [open, setOpen] = useState(false)
  const panelId = useId()
  const containerRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const location = useLocation()
  const close = useCallback(() => setOpen(false), [])
  usePopover(open, close, containerRef, buttonRef)

  useEffect(() => {
    setOpen(false)
  }, [location.key])

  return (
    <div className="notifications" ref={containerRef}>
      <button
        ref={buttonRef}
        type="button"
        className="icon-button"
        aria-label="Notifications"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
      >
        <BellIcon size={20} />
        <span className="icon-button__dot" aria-hidden="true" />
      </button>
      <div id={panelId} className="notifications__panel" hidden={!open}>
        <p className="notifications__title">Notifications</p>
        <p className="notifications__empty">You're all caught up. Updates about your websites and orders will appear here.</p>
      </div>
    </div>
  )
}
