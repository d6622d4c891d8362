import { useId } from 'react'
import { useMenu } from '../../lib/use-menu'
import { BellIcon } from '../icons/BellIcon'

/** Bell with a small red dot; opens a short panel (no notification feed exists yet). */
export function NotificationsButton() {
  const { open, toggle, containerRef, buttonRef } = useMenu()
  const panelId = useId()

  return (
    <div className="notifications" ref={containerRef}>
      <button
        ref={buttonRef}
        type="button"
        className="icon-button"
        aria-label="Notifications"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={toggle}
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
