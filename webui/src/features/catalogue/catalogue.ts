/**
 * The plan catalogue (`GET /api/catalogue`): every price, plan name, badge and family text the
 * UI shows comes from here, never from the bundle. Fetched at most once per page load.
 */
import { startTransition, useCallback, useEffect, useState } from 'react'
import { api, errorMessage, type ResponseBody } from '../../lib/api-client'
import type { components } from '../../lib/api-schema'
import { formatCents } from '../../lib/money'

export type Catalogue = ResponseBody<typeof CATALOGUE_PATH, 'get'>
export type Family = components['schemas']['FamilyOut']
/** Prices are integer cents; `checkout: false` means shown on a page but never sold through /start. */
export type Plan = components['schemas']['PlanOut']
export type PlanBadge = NonNullable<Plan['badge']>

export const CATALOGUE_PATH = '/api/catalogue'

/** Id of the `<script type="application/json">` the server fills into the purchase pages
 * (`/start`, `/ai-start`) with the current catalogue, so they hydrate without a fetch. */
export const EMBEDDED_CATALOGUE_ID = 'agency-catalogue'

let pending: Promise<Catalogue> | null = null
/** The catalogue known without a fetch: embedded in the page, or handed to the prerender. */
let known: Catalogue | null | undefined

/** Build time only (entry-server): the catalogue the next prerendered page is rendered with
 * (null: none, the page renders its loading state). */
export function provideCatalogueForServer(catalogue: Catalogue | null): void {
  known = catalogue
  pending = catalogue ? Promise.resolve(catalogue) : null
}

/** The catalogue the page already holds (embedded by the server), read once. */
export function knownCatalogue(): Catalogue | null {
  if (known === undefined) {
    known = null
    const data = typeof document === 'undefined' ? null : document.getElementById(EMBEDDED_CATALOGUE_ID)
    if (data?.textContent) {
      try {
        known = JSON.parse(data.textContent) as Catalogue
        pending = Promise.resolve(known)
      } catch {
        known = null
      }
    }
  }
  return known
}

/** The catalogue, fetched once per page load (a failed fetch is retried on the next call). */
export function loadCatalogue(): Promise<Catalogue> {
  knownCatalogue()
  pending ??= api.get(CATALOGUE_PATH).catch((err: unknown) => {
    pending = null
    throw err
  })
  return pending
}

/** Tests only: forget the cached catalogue. */
export function resetCatalogueCache(): void {
  pending = null
  known = undefined
}

export type CatalogueState =
  | { status: 'loading'; catalogue: null; error: null }
  | { status: 'ready'; catalogue: Catalogue; error: null }
  | { status: 'error'; catalogue: null; error: string }

/**
 * The catalogue for a component. Starts `ready` when the page holds it (the purchase pages:
 * embedded by the server, rendered with it at build time), else in `loading` on every render
 * path (prerender and hydration included) and fetches in an effect, so prerendered markup
 * matches the first client render.
 */
export function useCatalogue(): CatalogueState & { retry: () => void } {
  const [state, setState] = useState<CatalogueState>(() => {
    const catalogue = knownCatalogue()
    return catalogue ? { status: 'ready', catalogue, error: null } : { status: 'loading', catalogue: null, error: null }
  })
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    if (attempt === 0 && knownCatalogue()) return undefined // rendered with it from the start
    let live = true
    // As a transition: the plans replace skeletons on a page that may still be hydrating,
    // and a plain update would render and commit them in one long task.
    const settle = (next: CatalogueState) => live && startTransition(() => setState(next))
    loadCatalogue().then(
      (catalogue) => settle({ status: 'ready', catalogue, error: null }),
      (err: unknown) => settle({ status: 'error', catalogue: null, error: errorMessage(err) }),
    )
    return () => {
      live = false
    }
  }, [attempt])

  const retry = useCallback(() => {
    setState({ status: 'loading', catalogue: null, error: null })
    setAttempt((n) => n + 1)
  }, [])

  return { ...state, retry }
}

// ---- Formatting ------------------------------------------------------------------------

/** "€19", "€1,999", "€19.50" (decimals only when the amount is not whole). */
export const formatPrice = formatCents

// ---- Look-ups --------------------------------------------------------------------------

export function findPlan(catalogue: Catalogue, key: string | null | undefined): Plan | undefined {
  return key ? catalogue.plans.find((plan) => plan.key === key) : undefined
}

export function findFamily(catalogue: Catalogue, key: string | null | undefined): Family | undefined {
  return key ? catalogue.families.find((family) => family.key === key) : undefined
}

/** The family's plans in display order. */
export function familyPlans(catalogue: Catalogue, familyKey: string): Plan[] {
  const family = findFamily(catalogue, familyKey)
  if (!family) return []
  return family.plans.map((key) => findPlan(catalogue, key)).filter((plan): plan is Plan => plan !== undefined)
}

/** The plan whose payment-provider price id is `priceId`. */
export function planByPriceId(catalogue: Catalogue, priceId: string | null | undefined): Plan | undefined {
  return priceId ? catalogue.plans.find((plan) => plan.price_id === priceId) : undefined
}

export const DEFAULT_FAMILY = 'website'
