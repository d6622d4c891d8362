import { useEffect, useId, useRef, type KeyboardEvent } from 'react'
import { Link } from '../../lib/router'
import { useMenu } from '../../lib/use-menu'
import { displayName, type User } from '../../lib/auth'
import { ChevronDownIcon } from '../icons/ChevronDownIcon'
import { LogOutIcon } from '../icons/LogOutIcon'
import { SettingsIcon } from '../icons/SettingsIcon'
import { Spinner } from '../ui/Spinner'
import { Avatar } from './Avatar'

export interface UserMenuProps {
  user: User
  onSignOut: () => void
  signingOut: boolean
}

/** Avatar button opening a small panel: name, e-mail, Settings link, Sign out. */
export function UserMenu({ user, onSignOut, signingOut }: UserMenuProps) {
  const { open, setOpen, toggle, containerRef, buttonRef } = useMenu()
  const panelId = useId()
  const panelRef = useRef<HTMLDivElement>(null)
  const focusFirst = useRef(false)

  // Opened from the keyboard: move focus into the panel.
  useEffect(() => {
    if (open && focusFirst.current) panelRef.current?.querySelector<HTMLElement>('a, button')?.focus()
    focusFirst.current = false
  }, [open])

  const items = () => Array.from(panelRef.current?.querySelectorAll<HTMLElement>('a, button:not(:disabled)') ?? [])

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'Enter' || event.key === ' ') {
      focusFirst.current = true
      if (event.key === 'ArrowDown') {
        event.preventDefault()
        setOpen(true)
      }
    }
  }

  const onPanelKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return
    event.preventDefault()
    const list = items()
    const index = list.indexOf(document.activeElement as HTMLElement)
    const step = event.key === 'ArrowDown' ? 1 : -1
    list[(index + step + list.length) % list.length]?.focus()
  }

  const name = displayName(user)
  // The button shows the first name on wide screens; its accessible name starts with it
  // (WCAG 2.5.3). Without a name the avatar stands alone: never a cut-off e-mail address.
  const shown = user.first_name?.trim()

  return (
    <div className="user-menu" ref={containerRef}>
      <button
        ref={buttonRef}
        type="button"
        className="user-menu__button"
        aria-label={shown ? `${shown}, user menu` : 'User menu'}
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={panelId}
        onKeyDown={onButtonKeyDown}
        onClick={toggle}
      >
        <Avatar user={user} />
        {shown && (
          <span className="user-menu__first" aria-hidden="true">
            {shown}
          </span>
        )}
        <ChevronDownIcon size={16} className="user-menu__chevron" />
      </button>
      {/* eslint-disable-next-line jsx-a11y/no-static-element-interactions -- delegation: the arrow keys bubble up from the panel's links and buttons */}
      <div id={panelId} ref={panelRef} className="user-menu__panel" hidden={!open} onKeyDown={onPanelKeyDown}>
        <div className="user-menu__who">
          <Avatar user={user} size="lg" />
          <div className="user-menu__who-text">
            {/* Without a name the address is said once, not as the name too. */}
            {name !== user.email && <p className="user-menu__name">{name}</p>}
            <p className="user-menu__email">{user.email}</p>
          </div>
        </div>
        <ul className="user-menu__list">
          <li>
            <Link to="/dashboard/settings" className="user-menu__item">
              <SettingsIcon size={18} />
              Settings
            </Link>
          </li>
          <li>
            <button
              type="button"
              className="user-menu__item user-menu__item--danger"
              onClick={onSignOut}
              disabled={signingOut}
              aria-busy={signingOut || undefined}
            >
              {signingOut ? <Spinner label={null} size="sm" /> : <LogOutIcon size={18} />}
              Sign out
            </button>
          </li>
        </ul>
      </div>
    </div>
  )
}
