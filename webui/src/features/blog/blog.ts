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

/** "November 24, 2026", in UTC (the server's `display_date`: the same on every machine). */
export function displayDate(iso: string): string {
  const date = new Date(iso)
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`
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
  document.head.querySelector('link[rel="canonical"]')?.setAttribute('href', `${baseUrl}/blog/${article.slug}`)
}
