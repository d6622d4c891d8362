/** Billing data of the signed-in user (subscription, orders), and how the dashboard shows it. */
import { api } from '../../lib/api-client'
import type { components } from '../../lib/api-schema'
import { planByPriceId, type Catalogue } from '../catalogue'

export type Subscription = components['schemas']['SubscriptionOut']
export type Order = components['schemas']['OrderOut']

export const SUBSCRIPTION_PATH = '/api/billing/subscription'
export const ORDERS_PATH = '/api/billing/orders'
export const PORTAL_PATH = '/api/billing/portal'

export async function fetchSubscription(): Promise<Subscription | null> {
  const data = await api.get(SUBSCRIPTION_PATH)
  return data?.subscription ?? null
}

export async function fetchOrders(): Promise<Order[]> {
  const data = await api.get(ORDERS_PATH)
  return data?.orders ?? []
}

/** A subscription counts only when its status is exactly 'active'. */
export function isActive(subscription: Subscription | null | undefined): subscription is Subscription {
  return subscription?.subscription_status === 'active'
}

/** The plan name: from the API, else matched by price id in the catalogue. */
export function subscriptionPlanName(subscription: Subscription | null, catalogue: Catalogue | null): string | null {
  if (!subscription) return null
  if (subscription.plan_name) return subscription.plan_name
  return (catalogue && planByPriceId(catalogue, subscription.price_id)?.name) ?? null
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** "Visa •••• 4242"; null when there is no card. */
export function cardLabel(brand: string | null | undefined, last4: string | null | undefined): string | null {
  if (!brand && !last4) return null
  const name = brand ? capitalise(brand) : 'Card'
  return last4 ? `${name} •••• ${last4}` : name
}

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' })

/** Unix seconds as "22 December 2026"; 'N/A' when missing. */
export function formatPeriodEnd(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return 'N/A'
  return dateFormat.format(new Date(seconds * 1000))
}

/** An ISO timestamp as "22 December 2026" (the raw text if it does not parse). */
export function formatIsoDate(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date)
}

/** "past_due" -> "Past due". */
export function statusText(status: string): string {
  return capitalise(status.replace(/_/g, ' '))
}

export type StatusTone = 'green' | 'yellow' | 'grey' | 'red'

export function orderStatusTone(status: string): StatusTone {
  if (status === 'paid' || status === 'complete' || status === 'succeeded') return 'green'
  if (status === 'pending' || status === 'open') return 'yellow'
  if (status === 'failed' || status === 'refunded' || status === 'canceled') return 'red'
  return 'grey'
}
