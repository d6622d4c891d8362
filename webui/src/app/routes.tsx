/**
 * THE route table of the web UI. Everything else derives from it: the <Routes> tree
 * (App.tsx), page <title>/meta tags, the hydration preload (main.tsx), the prerender list
 * and dist/routes.json (scripts/prerender.mjs via entry-server.tsx).
 *
 * `page` names a module under src/pages/ (without `.tsx`); it is loaded lazily.
 * `prerender: true` routes are rendered to static HTML at build time; the others are
 * client-only and served from dist/spa.html. `:param` matches one path segment.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react'
import { matchPath } from 'react-router-dom'

export interface PageModule {
  default: ComponentType
}

export type RouteLayout = 'public' | 'dashboard'

export interface RouteDef {
  path: string
  /** Module under src/pages/, without extension, e.g. 'Login' or 'dashboard/Billing'. */
  page: string
  prerender: boolean
  /** Page part of the <title>; the site name is appended. */
  title: string
  /** <meta name="description"> and og:description. */
  description: string
  layout: RouteLayout
  /** Canonical URL when it differs from the path (e.g. home anchors). */
  canonical?: string
  /** Element id scrolled to after the page is shown (e.g. /pricing -> #pricing on home). */
  scrollTo?: string
  ogType?: 'website' | 'article'
}

export interface AppRoute extends RouteDef {
  /** Source path as used in .vite/manifest.json, e.g. 'src/pages/Login.tsx'. */
  source: string
  /** Starts (or reuses) the page chunk download. */
  load: () => Promise<PageModule>
  Component: LazyExoticComponent<ComponentType>
}

export const SITE_NAME = 'agency'

const HOME_DESCRIPTION =
  'Done-for-you websites with a 99/100 PageSpeed score, live within 24 hours and hosting included. No coding, no plugins.'

const pub = (
  path: string,
  page: string,
  title: string,
  description: string,
  extra: Partial<RouteDef> = {},
): RouteDef => ({ path, page, title, description, prerender: true, layout: 'public', ...extra })

const spa = (
  path: string,
  page: string,
  title: string,
  description: string,
  extra: Partial<RouteDef> = {},
): RouteDef => ({ path, page, title, description, prerender: false, layout: 'public', ...extra })

const dash = (path: string, page: string, title: string, description: string): RouteDef => ({
  path,
  page,
  title,
  description,
  prerender: false,
  layout: 'dashboard',
})

const CONTENT_ENGINE_DESCRIPTION =
  'An AI content engine for founders: 30 videos and posts in 24 hours from one idea, with approval control and scheduling.'

export const routeDefs: readonly RouteDef[] = [
  // --- Prerendered public pages -------------------------------------------------------
  pub('/', 'Home', 'Your Website. Live in Minutes.', HOME_DESCRIPTION),
  pub('/landing', 'WebsiteSpeedLanding', 'Fast Website Rebuild in 24 Hours', 'A slow website costs you clients. We rebuild it with a 99/100 PageSpeed score, live within 24 hours, hosting included.'),
  pub('/ugc-force', 'UgcForce', 'UGC Videos That Sell', 'User-generated-content videos for ads and social media, made by real creators and delivered fast.'),
  pub('/ai-automation', 'AiAutomation', 'AI Automation for Your Business', 'Done-for-you AI systems for customer support, lead handling and workflows. Book a free strategy call.'),
  pub('/ai-lead-engine', 'AiLeadEngine', 'AI Lead Engine', 'An AI lead engine that captures, qualifies and follows up on leads, delivered in 72 hours with a 30-day money-back guarantee.'),
  pub('/ai-booking-system', 'AiBookingSystem', 'AI Booking System for Clinics', 'AI booking for clinics: patients book, reschedule and get reminders around the clock.'),
  pub('/ai-onboarding-system', 'AiOnboardingSystem', 'AI Onboarding for Agencies', 'Automate client onboarding for your agency: forms, welcome e-mails, access requests and kick-off scheduling.'),
  pub('/ai-scale-startup', 'AiScaleStartup', 'AI Content Engine for Founders', CONTENT_ENGINE_DESCRIPTION),
  pub('/ai-scale-startup2', 'AiScaleStartup', 'AI Content Engine for Founders', CONTENT_ENGINE_DESCRIPTION),
  pub('/ai-scale-startup3', 'AiScaleStartup', 'AI Content Engine for Founders', CONTENT_ENGINE_DESCRIPTION),
  pub('/ai-scale-startup4', 'AiScaleStartup', 'AI Content Engine for Founders', CONTENT_ENGINE_DESCRIPTION),
  pub('/lead-generation', 'LeadGeneration', 'Landing Page & Funnel Rebuild for Clinics', 'We rebuild your clinic landing page and funnel in 24 hours so more visitors book a consultation. 30-day money-back guarantee.'),
  pub('/rebuild-sales-funnel', 'RebuildSalesFunnel', 'Sales Funnel Rebuild in 48 Hours', 'We rebuild your sales funnel in 48 hours, with a 30-day money-back guarantee.'),
  pub('/real-estate-website-rebuild', 'RealEstateRebuild', 'Real Estate Website Rebuild', 'A fast, modern website for your real estate agency, live in 24 hours. See a free demo first.'),
  pub('/free-preview', 'FreePreview', 'Free Website Preview', 'Request a free preview of your improved website. We analyse your site and send you a demo within 2 hours.'),
  pub('/speed-test', 'SpeedTest', 'Website Speed Test', 'Test your website speed on mobile: PageSpeed score, speed index and total blocking time in one report.'),
  pub('/clinic-speed-test', 'ClinicSpeedTest', 'Website Speed Test for Medical & Healthcare Websites', 'Test the mobile speed of your clinic or practice website and see what slows your patients down.'),
  pub('/coach-speed-test', 'CoachSpeedTest', 'Website Speed Test for Coaches & Personal Trainers', 'Test the mobile speed of your coaching or personal training website and see what costs you clients.'),
  pub('/ai-analysis', 'analysis/AiAnalysis', 'AI Website Analysis', 'Reverse engineer any website with AI: strategy, sales funnel, customer journey, AI opportunities and speed.'),
  pub('/business-analysis', 'analysis/BusinessAnalysis', 'Website Business Analysis', 'See what your website costs you in leads: strategy, speed and AI readiness, analysed from your real pages.'),
  pub('/technical-analysis', 'analysis/TechnicalAnalysis', 'Deep Technical Website Analysis', 'A deep technical analysis of your website stack: architecture, performance and security.'),
  pub('/agency-analysis', 'analysis/AgencyAnalysis', 'Agency Growth Analysis', 'Analyse a client website for growth potential: client value, scalability, profitability and revenue opportunities.'),
  pub('/blog', 'blog/BlogIndex', 'Blog', 'Articles on fast websites, sales funnels, SEO and AI automation for small businesses.'),
  pub('/sales-funnel', 'SalesFunnel', 'Done-For-You Sales Funnel in 7 Days', 'A complete sales funnel built for you in 7 days. Book a free 30-minute consultation.'),
  pub('/login', 'auth/Login', 'Log in', 'Log in to your agency dashboard to see your websites, plan and billing.'),
  pub('/signup', 'auth/Signup', 'Create your account', 'Create your agency account to order services and manage your websites.'),
  pub('/forgot-password', 'auth/ForgotPassword', 'Reset your password', 'Request a single-use link to reset the password of your agency account.'),
  pub('/support', 'Support', 'Support', 'Get help with your website, plan or payment from the agency team.'),
  pub('/how-it-works', 'Home', 'How it works', HOME_DESCRIPTION, { canonical: '/', scrollTo: 'how-it-works' }),
  pub('/features', 'Home', 'Features', HOME_DESCRIPTION, { canonical: '/', scrollTo: 'features' }),
  pub('/pricing', 'Home', 'Pricing', HOME_DESCRIPTION, { canonical: '/', scrollTo: 'pricing' }),
  pub('/faq', 'info/Faq', 'FAQ', 'Answers to common questions about our websites, AI services, delivery times, payments and guarantees.'),
  pub('/about', 'info/About', 'About us', 'agency is a small European digital agency building fast websites, AI automation and video content for small businesses.'),
  pub('/contact', 'info/Contact', 'Contact', 'Contact the agency team about a project, your website or your account.'),
  pub('/careers', 'info/Careers', 'Careers', 'Work with agency: open roles and how to apply.'),
  pub('/privacy', 'info/Privacy', 'Privacy Policy', 'How agency collects, uses and protects your personal data.'),
  pub('/terms', 'info/Terms', 'Terms of Service', 'The terms that apply when you use this site and buy services from agency.'),
  pub('/cookies', 'info/Cookies', 'Cookie Policy', 'Which cookies this site uses and why.'),

  // --- Client-only pages (served from spa.html) ---------------------------------------
  spa('/start', 'purchase/Start', 'Get started', 'Choose your package and continue to secure checkout.'),
  spa('/ai-start', 'purchase/AiStart', 'Start Your 24h Website Rebuild', 'Choose your website package and continue to secure checkout.'),
  spa('/success', 'purchase/Success', 'Payment successful', 'Your payment went through. Next steps are on their way to your inbox.'),
  spa('/reset-password', 'auth/ResetPassword', 'Choose a new password', 'Set a new password for your agency account.'),
  spa('/blog/:slug', 'blog/Article', 'Blog', 'An article from the agency blog.', { ogType: 'article' }),

  // --- Dashboard (client-only, signed-in users) ---------------------------------------
  dash('/dashboard', 'dashboard/DashboardHome', 'Dashboard', 'Your subscription and websites at a glance.'),
  dash('/dashboard/websites', 'dashboard/Websites', 'Your websites', 'All websites we build and host for you.'),
  dash('/dashboard/websites/:id', 'dashboard/WebsiteDetail', 'Website details', 'Status and speed-score history of one of your websites.'),
  dash('/dashboard/analytics', 'dashboard/Analytics', 'Analytics', 'Speed and traffic figures for your websites.'),
  dash('/dashboard/billing', 'dashboard/Billing', 'Billing', 'Your plan, payment card, next billing date and orders.'),
  dash('/dashboard/support', 'dashboard/DashboardSupport', 'Support', 'Send a support request and see your past requests.'),
  dash('/dashboard/profile', 'dashboard/Profile', 'Profile', 'Your name and avatar.'),
  dash('/dashboard/settings', 'dashboard/Settings', 'Settings', 'Change your e-mail and password, export your data or delete your account.'),
  dash('/dashboard/seo', 'dashboard/SeoArticles', 'SEO Articles', 'Generate, edit, publish and archive blog articles.'),
  dash('/dashboard/leads', 'dashboard/Leads', 'Leads', 'The leads sent through the website forms, with a CSV download.'),
]

// Vite turns this into one lazy chunk per page module (tests excluded).
const pageModules = import.meta.glob<PageModule>(['../pages/**/*.tsx', '!../pages/**/*.test.tsx'])

function resolvedThenable<T>(value: T): Promise<T> {
  const thenable = {
    then(onFulfilled?: (v: T) => unknown) {
      onFulfilled?.(value)
      return thenable
    },
  }
  return thenable as unknown as Promise<T>
}

const pageCache = new Map<string, Pick<AppRoute, 'load' | 'Component' | 'source'>>()

function pageFor(page: string): Pick<AppRoute, 'load' | 'Component' | 'source'> {
  const cached = pageCache.get(page)
  if (cached) return cached
  const importer = pageModules[`../pages/${page}.tsx`]
  if (!importer) throw new Error(`Route table: no page module src/pages/${page}.tsx`)
  let pending: Promise<PageModule> | undefined
  let loaded: PageModule | undefined
  const load = () =>
    (pending ??= importer().then(
      (mod) => (loaded = mod),
      (err: unknown) => {
        pending = undefined // allow a retry after a failed download
        throw err
      },
    ))
  // Once the module is loaded (prerender, or the preload before hydration in main.tsx),
  // hand React.lazy a synchronously resolving thenable: the page then renders without
  // suspending, so the prerendered HTML is complete (no streamed inline <script>) and
  // hydration matches it exactly.
  const Component = lazy(() => (loaded ? resolvedThenable(loaded) : load()))
  const entry = { load, Component, source: `src/pages/${page}.tsx` }
  pageCache.set(page, entry)
  return entry
}

export const routes: readonly AppRoute[] = routeDefs.map((def) => ({ ...def, ...pageFor(def.page) }))

/** The route whose pattern matches `pathname` (trailing slash tolerated), if any. */
export function findRoute(pathname: string): AppRoute | undefined {
  return routes.find((route) => matchPath({ path: route.path, end: true }, pathname) !== null)
}

export const prerenderedPaths: readonly string[] = routes.filter((r) => r.prerender).map((r) => r.path)
export const spaPatterns: readonly string[] = routes.filter((r) => !r.prerender).map((r) => r.path)

export function fullTitle(route: Pick<RouteDef, 'title'>): string {
  return `${route.title} | ${SITE_NAME}`
}
