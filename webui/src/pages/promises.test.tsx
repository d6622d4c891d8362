/**
 * One delivery promise and one guarantee per package, from the catalogue: every money-back
 * guarantee a landing page states is the guarantee of the plans it sells (those its /start
 * links name; /sales-funnel's funnels are sold after a consultation), and no page promises a
 * second one ("or it's free").
 */
import { waitFor } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { mockLanding, renderLanding, startHrefs } from '@test/landing'
import { testCatalogue } from '@test/catalogue'
import { resetCatalogueCache } from '../features/catalogue'

beforeEach(() => resetCatalogueCache())

const PAGES = [
  '/ai-lead-engine',
  '/lead-generation',
  '/rebuild-sales-funnel',
  '/real-estate-website-rebuild',
  '/ai-automation',
  '/ai-booking-system',
  '/ai-onboarding-system',
  '/sales-funnel',
  '/ai-scale-startup',
  '/ai-scale-startup2',
  '/ai-scale-startup3',
  '/landing',
  '/ugc-force',
]

/** The /start links once the catalogue's packages (rendered after it loads) are there. */
async function linksToStart() {
  await waitFor(() => expect(document.querySelector('[aria-busy="true"]')).toBeNull())
  return startHrefs()
}

const days = (text: string) => [...text.matchAll(/(\d+)[- ]day money[- ]back/gi)].map((m) => Number(m[1]))

/** The plans a page sells: the plan of each /start link, else every plan of the family named. */
function soldPlans(hrefs: string[]) {
  const keys = new Set<string>()
  for (const href of hrefs) {
    const query = new URLSearchParams(href.split('?')[1] ?? '')
    const plan = query.get('plan')
    const family = testCatalogue.families.find((f) => f.key === query.get('type'))
    if (plan) keys.add(plan)
    else if (family) keys.add(family.default_plan)
  }
  return testCatalogue.plans.filter((plan) => keys.has(plan.key))
}

describe('promises on the landing pages', () => {
  it.each(PAGES)('%s states only the guarantee of the plans it sells', async (path) => {
    mockLanding()
    await renderLanding(path)
    const plans = path === '/sales-funnel' ? testCatalogue.plans.filter((p) => p.family === 'funnel') : soldPlans(await linksToStart())
    const text = document.body.textContent ?? ''
    const stated = new Set(days(text))
    const catalogued = new Set(plans.flatMap((plan) => days(plan.guarantee ?? '')))
    for (const value of stated) expect(catalogued, `${path} states a ${value}-day guarantee`).toContain(value)
    expect(text).not.toMatch(/or it’s free|or it's free|don’t pay/)
    expect(text).not.toMatch(/Live in Minutes/)
  })
})
