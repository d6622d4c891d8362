/**
 * The public blog's data and rules. The server fills `/blog` and `/blog/{slug}` per request
 * (src/agency/modules/blog/service/pages.py): the list or the article is in the first HTML
 * response, and the same data is in `<meta name="agency-blog" content="{json}">`, from which
 * the client renders exactly that markup when it hydrates (features/blog/BlogRegion.tsx).
 */
import type { ResponseBody } from '../../lib/api-client'
import type { components } from '../../lib/api-schema'

export type BlogPage = ResponseBody<'/api/blog/articles', 'get'>
export type ArticleSummary = components['schemas']['ArticleSummaryOut']
export type Cover = components['schemas']['CoverOut']
export type Language = NonNullable<PublishedArticle['language']>
export type CallToAction = NonNullable<PublishedArticle['call_to_action']>
export type PublishedArticle = ResponseBody<'/api/blog/articles/{slug}', 'get'>

/** What the server embeds with a blog page. */
export type BlogData =
  | { kind: 'list'; page: BlogPage }
  | { kind: 'article'; article: PublishedArticle }
  | { kind: 'missing' }

/** What the build leaves where the list or the article goes; the server replaces it. */
export const BLOG_REGION_MARKER = '<!--agency-blog-->'

const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November',
  'December',
]

const MONTHS_DE = [
  'Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November',
  'Dezember',
]

/** "November 24, 2026" (German: "24. November 2026"), in UTC (the server's `display_date`: the
 * same on every machine). */
export function displayDate(iso: string, language: Language = 'en'): string {
  const date = new Date(iso)
  if (language === 'de') return `${date.getUTCDate()}. ${MONTHS_DE[date.getUTCMonth()]} ${date.getUTCFullYear()}`
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`
}

/** The words an article page writes around the article, in its language (the server's
 * ARTICLE_TEXT in src/agency/modules/blog/service/pages.py: keep the two in step). */
export const ARTICLE_TEXT = {
  en: {
    published: 'Published',
    keywords: 'Keywords',
    back: 'Back to all articles',
    author: 'About the author',
    related: 'Read next',
    speed_test_title: 'How fast is your website?',
    speed_test_text: 'Run a free speed test and see what slows your site down and what it costs you.',
    speed_test_link: "Test your website's speed",
    start_title: 'Ready for a faster website?',
    start_text: "Tell us about your business and we'll build a fast website that brings you customers.",
    start_link: 'Start your project',
  },
  de: {
    published: 'Veröffentlicht am',
    keywords: 'Schlagwörter',
    back: 'Zurück zu allen Artikeln',
    author: 'Geschrieben von',
    related: 'Weiterlesen',
    speed_test_title: 'Wie schnell ist Ihre Website?',
    speed_test_text: 'Machen Sie den kostenlosen Speed-Test und sehen Sie, was Ihre Seite bremst und was es Sie kostet.',
    speed_test_link: 'Website-Geschwindigkeit testen',
    start_title: 'Bereit für eine schnellere Website?',
    start_text: 'Erzählen Sie uns von Ihrem Unternehmen, und wir bauen Ihnen eine schnelle Website, die Kunden bringt.',
    start_link: 'Projekt starten',
  },
} as const satisfies Record<Language, Record<string, string>>

/** Where each call to action leads. */
export const CTA_HREF: Record<CallToAction, string> = { speed_test: '/speed-test', start: '/start' }
/** The covers' `sizes`: the article column (at most 960 px) and a list card (about 384 px). */
export const ARTICLE_COVER_SIZES = '(min-width: 1024px) 960px, 100vw'
export const CARD_COVER_SIZES = '(min-width: 1024px) 384px, (min-width: 640px) 50vw, 100vw'

/** The document's language while an article is shown (German articles: "de"); back to the
 * site's "en" when it goes. */
export function setDocumentLanguage(language: Language) {
  document.documentElement.lang = language
}

/** "2026-11-24", in UTC, for `<time datetime>`. */
export function isoDate(iso: string): string {
  const date = new Date(iso)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`
}

/** The address of a page of the list: page 1 is plain /blog. */
export function pageHref(page: number): string {
  return page <= 1 ? '/blog' : `/blog?page=${page}`
}

/** `?page=` as the server reads it: absent or empty is 1; a whole number from 1; else null. */
export function pageFromSearch(search: string): number | null {
  const text = new URLSearchParams(search).get('page')
  if (text === null || text === '') return 1
  if (!/^[0-9]{1,6}$/.test(text)) return null
  const page = Number(text)
  return page >= 1 ? page : null
}

/** The address the document was loaded at: the embedded data belongs to it alone. */
const firstUrl = typeof window === 'undefined' ? '' : window.location.pathname + window.location.search
let embedded: BlogData | null | undefined

function readEmbedded(): BlogData | null {
  if (embedded !== undefined) return embedded
  embedded = null
  const content = document.querySelector('meta[name="agency-blog"]')?.getAttribute('content')
  if (content) {
    try {
      embedded = JSON.parse(content) as BlogData
    } catch {
      embedded = null
    }
  }
  return embedded
}

/** The data the server put into this document, while the address is still the one the
 * document was loaded at; else null (after client-side navigation, at build time). */
export function embeddedBlogData(): BlogData | null {
  if (typeof document === 'undefined' || window.location.pathname + window.location.search !== firstUrl) return null
  return readEmbedded()
}

function setMeta(attr: 'name' | 'property', key: string, value: string) {
  let element = document.head.querySelector(`meta[${attr}="${key}"]`)
  if (!element) {
    element = document.createElement('meta')
    element.setAttribute(attr, key)
    document.head.append(element)
  }
  element.setAttribute('content', value)
}

/** After a client-side navigation to an article: its own title and description. */
export function showArticleHead(article: PublishedArticle, siteName: string, baseUrl: string) {
  const title = `${article.title} | ${siteName}`
  const description = article.meta_description || article.title
  document.title = title
  setMeta('name', 'description', description)
  setMeta('property', 'og:title', title)
  setMeta('property', 'og:description', description)
  setMeta('property', 'og:url', `${baseUrl}/blog/${article.slug}`)
  if (article.cover) {
    const largest = article.cover.srcset.split(', ').at(-1)?.split(' ')[0] ?? article.cover.url
    setMeta('property', 'og:image', `${baseUrl}${largest}`)
  }
  document.head.querySelector('link[rel="canonical"]')?.setAttribute('href', `${baseUrl}/blog/${article.slug}`)
}
