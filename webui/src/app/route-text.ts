/**
 * Title and description of every route of routes.tsx, keyed by its path pattern. Kept out of
 * the route table so they stay out of the entry chunk: prerendered pages carry them in their
 * static <head>, and the browser loads this module only on the first client-side navigation
 * (see RouteMeta.tsx). routes.test.tsx checks that both tables list the same paths.
 */

/** [page part of the <title> (the brand is appended), meta description, where `{brand}`
 * stands for the configured brand name (RouteMeta.tsx fills it)]. */
export type RouteText = readonly [title: string, description: string]

const HOME_DESCRIPTION =
  'Done-for-you websites with a 99/100 PageSpeed score, live within 24 hours and hosting included. No coding, no plugins.'

const CONTENT_ENGINE_DESCRIPTION =
  'An AI content engine for founders: 30 videos and posts in 24 hours from one idea, with approval control and scheduling.'

export const ROUTE_TEXT: Readonly<Record<string, RouteText>> = {
  '/': ['Your Website. Live in 24 Hours.', HOME_DESCRIPTION],
  '/landing': ['Fast Website Rebuild in 24 Hours', 'A slow website costs you clients. We rebuild it with a 99/100 PageSpeed score, live within 24 hours, hosting included.'],
  '/ugc-force': ['UGC Videos That Sell', 'User-generated-content videos for ads and social media, made by real creators and delivered fast.'],
  '/ai-automation': ['AI Automation for Your Business', 'Done-for-you AI systems for customer support, lead handling and workflows. Book a free strategy call.'],
  '/ai-lead-engine': ['AI Lead Engine', 'An AI lead engine that captures, qualifies and follows up on leads, delivered in 72 hours with a 30-day money-back guarantee.'],
  '/ai-booking-system': ['AI Booking System for Clinics', 'AI booking for clinics: patients book, reschedule and get reminders around the clock.'],
  '/ai-onboarding-system': ['AI Onboarding for Agencies', 'Automate client onboarding for your agency: forms, welcome e-mails, access requests and kick-off scheduling.'],
  '/ai-scale-startup': ['AI Content Engine for Founders', CONTENT_ENGINE_DESCRIPTION],
  '/ai-scale-startup2': ['AI Content Engine for Founders', CONTENT_ENGINE_DESCRIPTION],
  '/ai-scale-startup3': ['AI Content Engine for Founders', CONTENT_ENGINE_DESCRIPTION],
  '/ai-scale-startup4': ['AI Content Engine for Founders', CONTENT_ENGINE_DESCRIPTION],
  '/lead-generation': ['Landing Page & Funnel Rebuild for Clinics', 'We rebuild your clinic landing page and funnel in 24 hours so more visitors book a consultation. 30-day money-back guarantee.'],
  '/rebuild-sales-funnel': ['Sales Funnel Rebuild in 48 Hours', 'We rebuild your sales funnel in 48 hours, with a 30-day money-back guarantee.'],
  '/real-estate-website-rebuild': ['Real Estate Website Rebuild', 'A fast, modern website for your real estate agency, live in 24 hours. See a free demo first.'],
  '/free-preview': ['Free Website Preview', 'Request a free preview of your improved website. We analyse your site and send you a demo within 2 hours.'],
  '/speed-test': ['Website Speed Test', 'Test your website speed on mobile: PageSpeed score, speed index and total blocking time in one report.'],
  '/clinic-speed-test': ['Website Speed Test for Medical & Healthcare Websites', 'Test the mobile speed of your clinic or practice website and see what slows your patients down.'],
  '/coach-speed-test': ['Website Speed Test for Coaches & Personal Trainers', 'Test the mobile speed of your coaching or personal training website and see what costs you clients.'],
  '/ai-analysis': ['AI Website Analysis', 'Reverse engineer any website with AI: strategy, sales funnel, customer journey, AI opportunities and speed.'],
  '/business-analysis': ['Website Business Analysis', 'See what your website costs you in leads: strategy, speed and AI readiness, analysed from your real pages.'],
  '/technical-analysis': ['Deep Technical Website Analysis', 'A deep technical analysis of your website stack: architecture, performance and security.'],
  '/agency-analysis': ['Agency Growth Analysis', 'Analyse a client website for growth potential: client value, scalability, profitability and revenue opportunities.'],
  '/blog': ['Blog', 'Articles on fast websites, sales funnels, SEO and AI automation for small businesses.'],
  '/sales-funnel': ['Done-For-You Sales Funnel in 7 Days', 'A complete sales funnel built for you in 7 days. Book a free 30-minute consultation.'],
  '/login': ['Log in', 'Log in to your {brand} dashboard to see your websites, plan and billing.'],
  '/signup': ['Create your account', 'Create your {brand} account to order services and manage your websites.'],
  '/forgot-password': ['Reset your password', 'Request a single-use link to reset the password of your {brand} account.'],
  '/support': ['Support', 'Get help with your website, plan or payment from the {brand} team.'],
  '/how-it-works': ['How it works', 'How you get your website: fill in a short form, we design and build it, and it goes live on your domain within 24 hours.'],
  '/features': ['Features', 'What every website includes: a 99/100 PageSpeed score, free hosting, premium design, e-mail automation and SEO.'],
  '/pricing': ['Pricing', 'Website plans Starter, Professional and Premium: monthly prices, what each includes, hosting and support.'],
  '/faq': ['FAQ', 'Answers to common questions about our websites, AI services, delivery times, payments and guarantees.'],
  '/about': ['About us', '{brand} is a small European digital agency building fast websites, AI automation and video content for small businesses.'],
  '/contact': ['Contact', 'Contact the {brand} team about a project, your website or your account.'],
  '/careers': ['Careers', 'Work with {brand}: open roles and how to apply.'],
  '/privacy': ['Privacy Policy', 'How {brand} collects, uses and protects your personal data.'],
  '/terms': ['Terms of Service', 'The terms that apply when you use this site and buy services from {brand}.'],
  '/cookies': ['Cookie Policy', 'Which cookies this site uses and why.'],
  '/imprint': ['Legal notice', 'Who runs this site: the company, its address, register, VAT ID and contact (Impressum).'],
  '/withdrawal': ['Withdrawal information', 'Your right of withdrawal as a consumer, how to withdraw, what follows, and the model withdrawal form.'],
  '/withdraw': ['Withdraw from contract', 'Withdraw from an order within the 14-day withdrawal period, without an account or log-in.'],
  '/cancel': ['Cancel contracts here', 'Cancel a subscription at the end of its billing period, without an account or log-in.'],
  '/start': ['Get started', 'Choose your package and continue to secure checkout.'],
  '/ai-start': ['Start Your Website, Live in 24 Hours', 'Choose your website package and continue to secure checkout.'],
  '/success': ['Payment successful', 'Your payment went through. Next steps are on their way to your inbox.'],
  '/reset-password': ['Choose a new password', 'Set a new password for your {brand} account.'],
  '/unsubscribe': ['Unsubscribe', 'Stop the reports and other e-mails we send to your address without being asked.'],
  '/blog/:slug': ['Blog', 'An article from the {brand} blog.'],
  '/dashboard': ['Dashboard', 'Your subscription and websites at a glance.'],
  '/dashboard/websites': ['Your websites', 'All websites we build and host for you.'],
  '/dashboard/websites/:id': ['Website details', 'Status and speed-score history of one of your websites.'],
  '/dashboard/analytics': ['Analytics', 'Speed and traffic figures for your websites.'],
  '/dashboard/billing': ['Billing', 'Your plan, payment card, next billing date and orders.'],
  '/dashboard/support': ['Support', 'Send a support request and see your past requests.'],
  '/dashboard/profile': ['Profile', 'Your name and avatar.'],
  '/dashboard/settings': ['Settings', 'Change your e-mail and password, export your data or delete your account.'],
  '/dashboard/seo': ['SEO Articles', 'Generate, edit, publish and archive blog articles.'],
  '/dashboard/leads': ['Leads', 'The leads sent through the website forms, with a CSV download.'],
  '/dashboard/admin/websites': ['All websites', 'Every customer website, its status and speed score, for the agency.'],
  '/dashboard/admin/support': ['Support requests', 'Every support request, with replies by e-mail, for the agency.'],
  '/dashboard/admin/contracts': ['Withdrawals and cancellations', 'Every withdrawal with its deadline and every cancelled subscription, for the agency.'],
  '/dashboard/admin/vat': ['VAT report', 'Revenue and VAT per country and rate, the recapitulative statement and the One-Stop-Shop figures of a quarter, for the agency.'],
  '/dashboard/admin/catalogue': ['Catalogue', 'Plans, prices and what is on sale.'],
  '/dashboard/admin/audit': ['Audit log', 'Who changed what, and when.'],
}
