/**
 * GET /api/admin/overview as the design fixes it (fixtures/overview.json: a month with
 * revenue, movements, failed payments and leads), a new install's all-zero answer, and a
 * render of the app that shows the address (the period lives in it).
 */
import { render } from '@testing-library/react'
import { MemoryRouter, useLocation } from 'react-router-dom'
import { App } from '../src/app/App'
import type { Overview } from '../src/features/overview'
import fixture from './fixtures/overview.json'

export const testOverview: Overview = fixture

/** A new install: every figure zero, no rows. */
export function emptyOverview(): Overview {
  const zero = { current: 0, previous: 0 }
  return {
    ...testOverview,
    cards: {
      mrr: zero,
      arr: zero,
      active_subscriptions: zero,
      one_time_revenue: zero,
      recurring_revenue: zero,
      new_customers: zero,
      failed_payments: zero,
      past_due: { current: 0, amount_at_risk: 0 },
      support_open: { current: 0 },
    },
    mrr_movements: { start: 0, new: 0, expansion: 0, reactivation: 0, contraction: 0, churn: 0, end: 0 },
    mrr_series: testOverview.mrr_series.map((p) => ({ ...p, mrr: 0 })),
    failed_payments: [],
    past_due: [],
    funnel: {
      steps: testOverview.funnel.steps.map((s) => ({ ...s, ...zero })),
      abandoned: zero,
      leads_by_source: [],
    },
    revenue_by_plan: [],
    revenue_by_family: [],
    websites: { by_status: [], building: { count: 0, median_hours: null, longest_hours: null } },
    tools: { speed_tests: { ...zero, became_leads: 0, became_purchases: 0 }, analyses: { ...zero, became_leads: 0, became_purchases: 0 } },
    support: { open: 0, answered: 0, median_first_reply_hours: null, previous_median_first_reply_hours: null },
  }
}

function Address() {
  const location = useLocation()
  return <output data-testid="address">{location.pathname + location.search}</output>
}

/** The app at `path`, with the current address in `data-testid="address"`. */
export function renderAppShowingAddress(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <App />
      <Address />
    </MemoryRouter>,
  )
}
