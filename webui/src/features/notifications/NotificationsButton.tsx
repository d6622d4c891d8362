import { useCallback, useEffect, useId, useRef, useState } from 'react'
import { errorMessage } from '../../lib/api-client'
import { Link } from '../../lib/router'
import {
  bellLabel,
  formatWhen,
  loadNotifications,
  markRead,
  NOTIFICATIONS_POLL_MS,
  safeLink,
  type Notification,
  type NotificationList,
} from './notifications'
import { useMenu } from '../../lib/use-menu'
import { BellIcon } from '../../components/icons/BellIcon'
import { Button } from '../../components/ui/Button'
import './notifications.css'

/**
 * The top bar's bell: a red dot only while something is unread (a site went live, a payment
 * failed, a support request was answered, a monitored score dropped). Opening the panel lists
 * the newest notifications and marks them read; the ones that were new keep their mark until it
 * closes. Escape closes it and gives the focus back to the bell.
 */
export function NotificationsButton() {
  const { open, toggle, containerRef, buttonRef } = useMenu()
  const panelId = useId()
  const [items, setItems] = useState<Notification[] | null>(null)
  const [unread, setUnread] = useState(0)
  const [error, setError] = useState<string | null>(null)
  // Ids that were unread when the panel opened: shown as new while it stays open.
  const [fresh, setFresh] = useState<ReadonlySet<number>>(new Set())
  const alive = useRef(true)

  const show = useCallback((data: NotificationList) => {
    if (!alive.current) return
    setItems(data.notifications)
    setUnread(data.unread)
    setError(null)
  }, [])
  const fail = useCallback((err: unknown) => {
    if (alive.current) setError(errorMessage(err))
  }, [])

  // The list on mount, then every minute while the dashboard is open.
  useEffect(() => {
    alive.current = true
    const poll = () => loadNotifications().then(show, fail)
    void poll()
    const timer = setInterval(() => void poll(), NOTIFICATIONS_POLL_MS)
    return () => {
      alive.current = false
      clearInterval(timer)
    }
  }, [show, fail])

  // Opening: fetch the newest, then mark the unread ones shown as read.
  async function onOpen() {
    let data: NotificationList
    try {
      data = await loadNotifications()
    } catch (err) {
      fail(err)
      return
    }
    show(data)
    const ids = data.notifications.filter((n) => !n.read).map((n) => n.id)
    setFresh(new Set(ids))
    if (ids.length === 0) return
    try {
      const left = await markRead(ids)
      if (!alive.current) return
      setUnread(left)
      setItems((current) => current?.map((n) => (ids.includes(n.id) ? { ...n, read: true } : n)) ?? current)
    } catch (err) {
      fail(err)
    }
  }

  const onClick = () => {
    if (!open) void onOpen()
    toggle()
  }

  return (
    <div className="notifications" ref={containerRef}>
      <button
        ref={buttonRef}
        type="button"
        className="icon-button"
        aria-label={bellLabel(unread)}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={onClick}
      >
        <BellIcon size={20} />
        {unread > 0 && <span className="icon-button__dot" aria-hidden="true" />}
      </button>
      <div id={panelId} className="notifications__panel" hidden={!open} role="region" aria-label="Notifications">
        <p className="notifications__title">Notifications</p>
        {error !== null && (
          <div className="notifications__error" role="alert">
            <p>We could not load your notifications. {error}</p>
            <Button size="sm" variant="outline" onClick={() => void loadNotifications().then(show, fail)}>
              Try again
            </Button>
          </div>
        )}
        {items !== null && items.length === 0 && (
          <p className="notifications__empty">You're all caught up. Updates about your websites and orders will appear here.</p>
        )}
        {items !== null && items.length > 0 && (
          <ul className="notifications__list">
            {items.map((item) => (
              <NotificationItem key={item.id} item={item} isNew={fresh.has(item.id)} />
            ))}
          </ul>
        )}
      </div>
    </div>
  )
}

function NotificationItem({ item, isNew }: { item: Notification; isNew: boolean }) {
  const link = safeLink(item.link)
  return (
    <li className={isNew ? 'notifications__item notifications__item--new' : 'notifications__item'}>
      <p className="notifications__item-title">
        {isNew && <span className="visually-hidden">New: </span>}
        {link ? <Link to={link}>{item.title}</Link> : item.title}
      </p>
      {item.body && <p className="notifications__item-body">{item.body}</p>}
      <time className="notifications__item-time" dateTime={item.created_at}>
        {formatWhen(item.created_at)}
      </time>
    </li>
  )
}
