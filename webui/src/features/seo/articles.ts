/**
 * The article manager's rules (marketing spec §2 'Article manager', §4, §5, §8; DECISIONS.md),
 * kept apart from React so they are tested on their own: the search and status filter, which
 * actions an article offers, the editor's checks and counts, the generation's progress pace,
 * and the admin API calls (`/api/admin/articles…`, `/api/admin/article-ideas`,
 * `/api/admin/article-drafts`, `/api/admin/generations/{id}`, `/api/admin/ai`). The server
 * makes the same checks (module `seo`) and its messages are the same words.
 */
import { api, type RequestBody, type ResponseBody } from '../../lib/api-client'
import type { components } from '../../lib/api-schema'
import { problem, type FormProblem } from '../../lib/forms'

// ---- Shapes (generated from the server's `blog.schemas` / `seo.schemas`) --------------------

/** An article as the article manager sees it (`ArticleOut`). */
export type Article = components['schemas']['ArticleOut']
export type ArticleStatus = Article['status']
/** How a body is written: Markdown (rendered by the server) or HTML (AI drafts, older articles). */
export type BodyFormat = Article['body_format']
/** What Edit and New Article save (`ArticleIn`). */
export type ArticleInput = RequestBody<'/api/admin/articles', 'post'>
/** An AI generation job (`GenerationOut`): polled until done or failed. */
export type Generation = ResponseBody<'/api/admin/generations/{generation_id}', 'get'>
export type GenerationKind = Generation['kind']
export type GenerationStatus = Generation['status']
/** A generated idea (spec §3): title, description, 3 keywords, a 3-point outline. */
export type Idea = NonNullable<Generation['ideas']>[number]
export type AiStatus = ResponseBody<'/api/admin/ai', 'get'>

// ---- Words (spec §5, §8) -------------------------------------------------------------------

export const MSG_TOPIC_REQUIRED = 'Please enter a topic'
export const MSG_TITLE_REQUIRED = 'Please enter a title'
export const MSG_AI_NOT_CONFIGURED = 'AI is not configured'
/** Said when a generation fails without a message of its own. */
export const MSG_GENERATION_FAILED = 'The AI could not finish. Please try again.'
export const EMPTY_TITLE = 'No articles found'
export const EMPTY_FILTERED = 'Try adjusting your search'
export const EMPTY_NONE = 'Start by generating some articles'

/** The AI is asked for a meta description under 160 characters; the editor counts towards it. */
export const META_DESCRIPTION_TARGET = 160
/** The server's limits (`blog.schemas`). */
export const TITLE_MAX = 200
export const SLUG_MAX = 200
export const META_DESCRIPTION_MAX = 300
export const KEYWORD_MAX = 60
export const KEYWORDS_MAX = 20
export const CONTENT_MAX = 200_000
export const SOURCE_MAX = 100_000
export const TOPIC_MAX = 200

// ---- The list ------------------------------------------------------------------------------

export type StatusFilter = '' | ArticleStatus

export const STATUS_FILTERS: readonly { value: StatusFilter; label: string }[] = [
  { value: '', label: 'All Status' },
  { value: 'draft', label: 'Drafts' },
  { value: 'published', label: 'Published' },
  { value: 'archived', label: 'Archived' },
]

export const STATUS_LABELS: Record<ArticleStatus, string> = {
  draft: 'Draft',
  published: 'Published',
  archived: 'Archived',
}

/**
 * The articles whose title or slug contains `search` (case-insensitive, surrounding spaces
 * ignored) and whose status is `status` (any when empty), in the order given.
 */
export function filterArticles<T extends Pick<Article, 'title' | 'slug' | 'status'>>(
  articles: readonly T[],
  search: string,
  status: StatusFilter,
): T[] {
  const needle = search.trim().toLocaleLowerCase()
  return articles.filter(
    (a) =>
      (status === '' || a.status === status) &&
      (needle === '' || a.title.toLocaleLowerCase().includes(needle) || a.slug.toLocaleLowerCase().includes(needle)),
  )
}

/** The empty state's second line: the filter hides articles, or there are none at all. */
export function emptyText(total: number): string {
  return total > 0 ? EMPTY_FILTERED : EMPTY_NONE
}

export type StatusAction = 'publish' | 'archive' | 'draft'

/**
 * What a row offers: Publish for drafts only; Archive unless archived; Back to draft for
 * published and archived articles (DECISIONS.md).
 */
export function actionsFor(status: ArticleStatus): StatusAction[] {
  const actions: StatusAction[] = []
  if (status === 'draft') actions.push('publish')
  if (status !== 'archived') actions.push('archive')
  if (status !== 'draft') actions.push('draft')
  return actions
}

export const ACTION_LABELS: Record<StatusAction, string> = {
  publish: 'Publish',
  archive: 'Archive',
  draft: 'Back to draft',
}

/** The status an action leads to. */
export const ACTION_RESULT: Record<StatusAction, ArticleStatus> = {
  publish: 'published',
  archive: 'archived',
  draft: 'draft',
}

/** `articles` with `changed` in place of the article of the same id. */
export function replaceArticle(articles: readonly Article[], changed: Article): Article[] {
  return articles.map((a) => (a.id === changed.id ? changed : a))
}

const createdFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' })

/** "23 Nov 2026" in the reader's time zone; the raw text when it is not a date. */
export function formatDate(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : createdFormat.format(date)
}

// ---- The editor ----------------------------------------------------------------------------

/**
 * The slug the server makes from a title (spec §5): lower-cased, runs of other characters one
 * hyphen, no hyphen at either end, cut to leave room for a "-2" suffix (empty for a title
 * without letters or digits: the server then says "article"). slug-cases.json holds both to
 * the same table.
 */
export function slugify(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX - 8)
    .replace(/-+$/, '')
}

/**
 * Whether the slug follows the title as it is typed: only for a new article or a draft, and
 * only while the slug is what the title gives (empty, or the title's slug with the "-2", "-3"
 * the server adds when it is taken). Once the admin types in the slug it stops following.
 */
export function slugFollowsTitle(status: ArticleStatus | null, title: string, slug: string): boolean {
  if (status !== null && status !== 'draft') return false
  const current = slug.trim()
  if (current === '') return true
  const derived = slugify(title)
  if (current === derived) return true
  return derived !== '' && current.startsWith(`${derived}-`) && /^\d+$/.test(current.slice(derived.length + 1))
}

/** "tips, local SEO ,, tips" -> ["tips", "local SEO"]: split on commas, trimmed, blanks and repeats (any case) dropped. */
export function parseKeywords(text: string): string[] {
  const seen = new Set<string>()
  const out: string[] = []
  for (const part of text.split(',')) {
    const word = part.trim().replace(/\s+/g, ' ')
    const key = word.toLocaleLowerCase()
    if (word === '' || seen.has(key)) continue
    seen.add(key)
    out.push(word)
  }
  return out
}

export function keywordsText(keywords: readonly string[]): string {
  return keywords.join(', ')
}

/** The meta description's count under the editor's field: "42 characters left" or "3 characters over 160". */
export function metaCount(text: string, target = META_DESCRIPTION_TARGET): { text: string; over: boolean } {
  const left = target - [...text].length
  if (left >= 0) return { text: `${left} ${left === 1 ? 'character' : 'characters'} left`, over: false }
  const over = -left
  return { text: `${over} ${over === 1 ? 'character' : 'characters'} over ${target}`, over: true }
}

/** The editor's text fields as typed. */
export interface ArticleForm {
  title: string
  slug: string
  metaDescription: string
  keywords: string
  /** The body as written: Markdown or HTML, as `format` says. */
  content: string
  format: BodyFormat
}

/** A new article is written in Markdown. */
export const EMPTY_FORM: ArticleForm = { title: '', slug: '', metaDescription: '', keywords: '', content: '', format: 'markdown' }

export function formFor(article: Article): ArticleForm {
  const markdown = article.body_format === 'markdown'
  return {
    title: article.title,
    slug: article.slug,
    metaDescription: article.meta_description,
    keywords: keywordsText(article.keywords),
    content: markdown ? article.source : article.content,
    format: markdown ? 'markdown' : 'html',
  }
}

export type FormField = keyof ArticleForm

/** The editor's fields, in the form's order (also the names of its inputs). */
export const FORM_FIELDS = ['title', 'slug', 'metaDescription', 'keywords', 'content', 'format'] as const satisfies readonly FormField[]

/** The form's values as read from its inputs (`format` is one of the two or Markdown). */
export function readForm(values: Record<(typeof FORM_FIELDS)[number], string>): ArticleForm {
  return { ...values, format: values.format === 'html' ? 'html' : 'markdown' }
}

/** The editor's checks before saving, in field order; null when the article may be sent. */
export function checkForm(form: ArticleForm): FormProblem | null {
  const keywords = parseKeywords(form.keywords)
  if (form.title.trim() === '') return problem(MSG_TITLE_REQUIRED, ['title'])
  if (form.title.trim().length > TITLE_MAX) return problem(`Please keep the title under ${TITLE_MAX + 1} characters`, ['title'])
  if (form.slug.trim().length > SLUG_MAX) return problem(`Please keep the slug under ${SLUG_MAX + 1} characters`, ['slug'])
  if (form.metaDescription.trim().length > META_DESCRIPTION_MAX) {
    return problem(`Please keep the meta description under ${META_DESCRIPTION_MAX + 1} characters`, ['metaDescription'])
  }
  if (keywords.length > KEYWORDS_MAX) return problem(`Please use at most ${KEYWORDS_MAX} keywords`, ['keywords'])
  if (keywords.some((k) => k.length > KEYWORD_MAX)) {
    return problem(`Please keep each keyword under ${KEYWORD_MAX + 1} characters`, ['keywords'])
  }
  if (form.content.length > (form.format === 'markdown' ? SOURCE_MAX : CONTENT_MAX)) {
    return problem('The article is too long to save', ['content'])
  }
  return null
}

/** What the form sends (`ArticleIn`): trimmed, keywords as a list, the body as `source` (Markdown) or `content` (HTML). */
export function articleInput(form: ArticleForm): ArticleInput {
  const markdown = form.format === 'markdown'
  return {
    title: form.title.trim(),
    slug: form.slug.trim(),
    meta_description: form.metaDescription.trim(),
    keywords: parseKeywords(form.keywords),
    body_format: form.format,
    content: markdown ? '' : form.content,
    source: markdown ? form.content : '',
  }
}

/** The server's field names mapped to the editor's (for a 400's `fields`). */
export const FIELD_OF: Record<string, FormField> = {
  title: 'title',
  slug: 'slug',
  meta_description: 'metaDescription',
  keywords: 'keywords',
  content: 'content',
  source: 'content',
  body_format: 'content',
}

// ---- Generation progress -------------------------------------------------------------------

/** About how long a real model takes: ideas, then a whole article. */
export const EXPECTED_MS: Record<GenerationKind, number> = { ideas: 20_000, article: 60_000 }

/**
 * The bar's value (0-100) `elapsedMs` into a generation expected to take `expectedMs`: a
 * straight pace to 80%, then slower and slower, always below 95, so a slow model never sits
 * at 100% waiting. It only grows with time; the page shows 100 when the answer is there.
 */
export function generationProgress(elapsedMs: number, expectedMs: number): number {
  const t = Math.max(0, elapsedMs)
  const steady = (t / expectedMs) * 100
  if (steady <= 80) return steady
  const past = t - 0.8 * expectedMs
  return 80 + 15 * (1 - Math.exp(-past / expectedMs))
}

/** 65_000 -> "1:05", 9_000 -> "0:09". */
export function elapsedText(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000))
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`
}

// ---- The admin API -------------------------------------------------------------------------

export async function listArticles(): Promise<Article[]> {
  return (await api.get('/api/admin/articles')).articles
}

export function getArticle(id: number): Promise<Article> {
  return api.get('/api/admin/articles/{article_id}', { params: { article_id: id } })
}

export function createArticle(input: ArticleInput): Promise<Article> {
  return api.post('/api/admin/articles', input)
}

export function updateArticle(id: number, input: ArticleInput): Promise<Article> {
  return api.put('/api/admin/articles/{article_id}', input, { params: { article_id: id } })
}

const STATUS_PATHS = {
  publish: '/api/admin/articles/{article_id}/publish',
  archive: '/api/admin/articles/{article_id}/archive',
  draft: '/api/admin/articles/{article_id}/draft',
} as const

export function changeStatus(id: number, action: StatusAction): Promise<Article> {
  return api.post(STATUS_PATHS[action], undefined, { params: { article_id: id } })
}

/** The body as it will be saved and shown: Markdown rendered, then sanitised, by the server (the function saving uses). */
export async function previewHtml(format: BodyFormat, body: string): Promise<string> {
  return (await api.post('/api/admin/blog/preview', { format, body })).html
}

export function aiStatus(): Promise<AiStatus> {
  return api.get('/api/admin/ai')
}

export function startIdeas(topic: string): Promise<Generation> {
  return api.post('/api/admin/article-ideas', { topic })
}

export function startArticle(idea: Idea): Promise<Generation> {
  const { title, description, keywords, outline } = idea
  return api.post('/api/admin/article-drafts', { title, description, keywords, outline })
}

export function getGeneration(id: string): Promise<Generation> {
  return api.get('/api/admin/generations/{generation_id}', { params: { generation_id: id } })
}
