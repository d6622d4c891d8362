/**
 * The versioned texts of an order (the server's billing/service/order_terms.py holds the same
 * version and wording; tests/billing/test_order_terms.py keeps them equal). A new wording takes
 * a new version in both places.
 */

export type { BuyerType } from '../tax'

export const EARLY_START_CONSENT_VERSION = 'early-start-2026-11-26'
export const EARLY_START_CONSENT_TEXT =
  'I want you to start the work before the 14-day withdrawal period ends. I know that I lose my right of withdrawal once you have fully performed the service.'

export const WITHDRAWAL_DAYS = 14
