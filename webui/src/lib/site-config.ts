/**
 * Site settings the agency configures on the server (AGENCY_CONTACT_PHONE, ...), not in code.
 *
 * How they reach the page without a request and without a hydration mismatch:
 * - the prerender (no `document`) renders unique tokens (`__AGENCY_PHONE__`, ...);
 * - the server replaces those tokens in every HTML file with the configured values, and fills
 *   `<meta name="agency-site" content="{json}">` in the head with the same values;
 * - the client reads that meta tag once, so it renders exactly what the HTML already shows.
 * Without the meta tag (Vite dev server, unit tests) the development defaults below apply.
 */

// The claims of the bundled config/claims.toml as the server shows them by default (a server
// test keeps the two the same).
import DEFAULT_CLAIMS from './claims-defaults.json'

export interface SiteConfig {
  /** Public address of the site without trailing slash (AGENCY_BASE_URL), for absolute URLs. */
  baseUrl: string
  /** Phone number as displayed, e.g. "+49 30 1234 5678". */
  phone: string
  /** `tel:` link for the phone number, e.g. "tel:+493012345678". */
  phoneHref: string
  /** Public contact e-mail address. */
  contactEmail: string
  /** Scheduling page shown in an iframe after the visitor asks for it; "" when not configured. */
  schedulingUrl: string
  /** Plan key sold by each content-engine route ('/ai-scale-startup' -> 'ai-scale-builder', ...). */
  contentEnginePlans: Readonly<Record<string, string>>
  /** The operator's claims that show (lib/claims.tsx): key -> text; a key left
   * out is off. */
  claims: Readonly<Record<string, string>>
  /** The name the site trades under (AGENCY_BRAND_NAME), e.g. in the footer's copyright. */
  brandName: string
  /** /ugc-force's self-hosted sample video, its poster and its captions (WebVTT, "" for none)
   * (AGENCY_UGC_SAMPLE_VIDEO, _POSTER, _CAPTIONS), or null: the page shows its phone frame. */
  ugcSampleVideo: { src: string; poster: string; captions: string } | null
}

/** Tokens the server substitutes in prerendered HTML (letters and underscores only, so they
 * survive URL encoding and HTML escaping unchanged). */
export const SITE_TOKENS = {
  baseUrl: '__AGENCY_BASE_URL__',
  phone: '__AGENCY_PHONE__',
  phoneHref: '__AGENCY_PHONE_HREF__',
  contactEmail: '__AGENCY_CONTACT_EMAIL__',
  schedulingUrl: '__AGENCY_SCHEDULING_URL__',
  /** Replaced per page by the plan configured for that page's path. */
  contentEnginePlan: '__AGENCY_CONTENT_ENGINE_PLAN__',
  brandName: '__AGENCY_BRAND__',
} as const

/** Development and unit-test values (the server's defaults are the same). */
export const DEV_SITE_CONFIG: SiteConfig = {
  baseUrl: 'http://127.0.0.1:8000',
  phone: '+49 30 1234 5678',
  phoneHref: 'tel:+493012345678',
  contactEmail: 'hello@agency.local',
  schedulingUrl: '',
  contentEnginePlans: {
    '/ai-scale-startup': 'ai-scale-builder',
    '/ai-scale-startup2': 'ai-scale-plan',
    '/ai-scale-startup3': 'ai-scale-growth',
    '/ai-scale-startup4': 'ai-scale-builder',
  },
  // Only where no server fills the meta tag (dev server, unit tests); a production page
  // without it shows no claim at all.
  claims: import.meta.env.PROD ? {} : DEFAULT_CLAIMS,
  brandName: 'agency',
  ugcSampleVideo: null,
}

/** Token of a claim's text in prerendered HTML (content/service/claims.py fills it). */
export const claimToken = (key: string) => `__AGENCY_CLAIM_${key.toUpperCase()}__`

const PRERENDER_CONFIG: SiteConfig = {
  baseUrl: SITE_TOKENS.baseUrl,
  phone: SITE_TOKENS.phone,
  phoneHref: SITE_TOKENS.phoneHref,
  contactEmail: SITE_TOKENS.contactEmail,
  schedulingUrl: SITE_TOKENS.schedulingUrl,
  contentEnginePlans: new Proxy({}, { get: () => SITE_TOKENS.contentEnginePlan }),
  // Every claim is rendered (as its token); the server cuts those that are off.
  claims: new Proxy({}, { get: (_target, key) => (typeof key === 'string' ? claimToken(key) : undefined) }),
  brandName: SITE_TOKENS.brandName,
  // The prerendered page shows the phone frame; the configured video replaces it on hydration.
  ugcSampleVideo: null,
}

function readMeta(): SiteConfig {
  const content = document.querySelector('meta[name="agency-site"]')?.getAttribute('content')
  if (!content || content.startsWith('__')) return DEV_SITE_CONFIG
  try {
    return { ...DEV_SITE_CONFIG, ...(JSON.parse(content) as Partial<SiteConfig>) }
  } catch {
    return DEV_SITE_CONFIG
  }
}

let cached: SiteConfig | undefined

/** The site settings (constant for the page's lifetime). */
export function siteConfig(): SiteConfig {
  if (typeof document === 'undefined') return PRERENDER_CONFIG
  return (cached ??= readMeta())
}

/** The plan a content-engine route sells (its price variant is configuration). */
export function contentEnginePlan(path: string): string {
  const config = siteConfig()
  return config.contentEnginePlans[path] ?? DEV_SITE_CONFIG.contentEnginePlans[path] ?? 'ai-scale-builder'
}

/** For tests: forget the cached settings so the next call reads the document again. */
export function resetSiteConfigForTests(): void {
  cached = undefined
}
