/**
 * The signed-in user's notifications (the top bar's bell): `GET /api/notifications` lists the
 * newest with the unread count, `POST /api/notifications/read` marks some (or all) read.
 */
import { api, type ResponseBody } from '../../lib/api-client'
import type { components } from '../../lib/api-schema'

export type Notification = components['schemas']['NotificationOut']

export const NOTIFICATIONS_PATH = '/api/notifications' as const
export const NOTIFICATIONS_READ_PATH = '/api/notifications/read'
export type NotificationList = ResponseBody<typeof NOTIFICATIONS_PATH, 'get'>
/** How often the bell asks for new notifications while the dashboard is open. */
export const NOTIFICATIONS_POLL_MS = 60_000

export function loadNotifications(): Promise<NotificationList> {
  return api.get(NOTIFICATIONS_PATH)
}

/** Marks these notifications read; answers how many stay unread. */
export async function markRead(ids: readonly number[]): Promise<number> {
  return (await api.post(NOTIFICATIONS_READ_PATH, { ids: [...ids] })).unread
}

const timeFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
})

/** "23 Nov 2026, 11:42" in the reader's time zone; the raw text when it is not a date. */
export function formatWhen(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : timeFormat.format(date)
}

/** A link the panel may follow inside the app: a path of ours, never another site. */
export function safeLink(link: string | null | undefined): string | null {
  return link && link.startsWith('/') && !link.startsWith('//') ? link : null
}

/** The bell's accessible name: the unread count is said, not only shown as a dot. */
export function bellLabel(unread: number): string {
  return unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'
}
