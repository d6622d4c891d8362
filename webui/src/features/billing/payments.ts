/**
 * Whether payments are set up on the server, read from `<meta name="agency-payments">`, which
 * the server fills with "on" or "off" at start-up (billing/service/payments_notice.py). The
 * prerender renders the purchase pages with the "not set up" notice; the server removes it
 * when payments are on, so the first HTML already says the truth. Without the tag (the Vite dev
 * server, unit tests) payments count as set up.
 */
export const MSG_PAYMENTS_OFF = 'Payments are not set up yet. Please contact us to order.'

export function paymentsReady(): boolean {
  if (typeof document === 'undefined') return false // prerender: the notice, removed when on
  const content = document.querySelector('meta[name="agency-payments"]')?.getAttribute('content')
  return content !== 'off'
}
