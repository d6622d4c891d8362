import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import slugCases from './slug-cases.json'
import {
  EMPTY_FILTERED,
  EMPTY_NONE,
  EMPTY_FORM,
  KEYWORDS_MAX,
  MSG_TITLE_REQUIRED,
  actionsFor,
  articleInput,
  checkForm,
  elapsedText,
  emptyText,
  filterArticles,
  formFor,
  generationProgress,
  metaCount,
  parseKeywords,
  replaceArticle,
  slugFollowsTitle,
  slugify,
  type Article,
  type ArticleStatus,
} from './articles'

const STATUSES: ArticleStatus[] = ['draft', 'published', 'archived']

function article(id: number, title: string, slug: string, status: ArticleStatus = 'draft'): Article {
  return {
    id,
    title,
    slug,
    meta_description: '',
    keywords: [],
    content: '',
    body_format: 'html',
    source: '',
    status,
    created_by: 1,
    created_at: '2026-11-20T08:00:00+00:00',
    updated_at: '2026-11-20T08:00:00+00:00',
    published_at: status === 'published' ? '2026-11-21T08:00:00+00:00' : null,
  }
}

const sample = [
  article(3, 'Local SEO for Dentists', 'local-seo-for-dentists', 'published'),
  article(2, 'Why Speed Matters', 'page-speed', 'draft'),
  article(1, 'Old News', 'old-news', 'archived'),
]

describe('search and status filter (spec §2, §5)', () => {
  it('matches the title or the slug, case-insensitively', () => {
    expect(filterArticles(sample, 'seo', '').map((a) => a.id)).toEqual([3])
    expect(filterArticles(sample, 'PAGE-SPEED', '').map((a) => a.id)).toEqual([2])
    expect(filterArticles(sample, 'speed', '').map((a) => a.id)).toEqual([2])
    expect(filterArticles(sample, '  news ', '').map((a) => a.id)).toEqual([1])
    expect(filterArticles(sample, 'nothing like this', '')).toEqual([])
  })

  it('filters by status, and both together', () => {
    expect(filterArticles(sample, '', 'draft').map((a) => a.id)).toEqual([2])
    expect(filterArticles(sample, '', 'published').map((a) => a.id)).toEqual([3])
    expect(filterArticles(sample, '', 'archived').map((a) => a.id)).toEqual([1])
    expect(filterArticles(sample, 'old', 'draft')).toEqual([])
  })

  it('keeps exactly the articles whose title or slug contains the search in any case, in order', () => {
    const arb = fc.array(
      fc.record({ title: fc.string({ maxLength: 12 }), slug: fc.string({ maxLength: 12 }), status: fc.constantFrom(...STATUSES) }),
      { maxLength: 12 },
    )
    fc.assert(
      fc.property(arb, fc.string({ maxLength: 4 }), fc.constantFrom('' as const, ...STATUSES), (list, search, status) => {
        const out = filterArticles(list, search, status)
        const needle = search.trim().toLocaleLowerCase()
        // A subsequence of the input...
        let i = 0
        for (const a of list) if (a === out[i]) i++
        expect(i).toBe(out.length)
        // ...holding exactly the matching ones.
        for (const a of list) {
          const match =
            (status === '' || a.status === status) &&
            (a.title.toLocaleLowerCase().includes(needle) || a.slug.toLocaleLowerCase().includes(needle))
          expect(out.includes(a)).toBe(match)
        }
        // Case never matters (letters whose case maps one to one).
        const ascii = search.replace(/[^ -~]/g, '')
        expect(filterArticles(list, ascii.toUpperCase(), status)).toEqual(filterArticles(list, ascii.toLowerCase(), status))
      }),
    )
  })

  it('says why the table is empty', () => {
    expect(emptyText(0)).toBe(EMPTY_NONE)
    expect(emptyText(3)).toBe(EMPTY_FILTERED)
    expect(EMPTY_NONE).toBe('Start by generating some articles')
    expect(EMPTY_FILTERED).toBe('Try adjusting your search')
  })
})

describe('the actions a row offers (spec §4, DECISIONS.md)', () => {
  it('Publish for drafts only, Archive unless archived, Back to draft for the others', () => {
    expect(actionsFor('draft')).toEqual(['publish', 'archive'])
    expect(actionsFor('published')).toEqual(['archive', 'draft'])
    expect(actionsFor('archived')).toEqual(['draft'])
  })

  it('replaces the changed article in place', () => {
    const changed = { ...sample[1], status: 'published' as const }
    const out = replaceArticle(sample, changed)
    expect(out.map((a) => a.status)).toEqual(['published', 'published', 'archived'])
    expect(out[0]).toBe(sample[0])
  })
})

describe('the editor', () => {
  it('makes the slug as the server does (spec §5)', () => {
    expect(slugify('Local SEO: 10 Tips for 2026!')).toBe('local-seo-10-tips-for-2026')
    expect(slugify('  --Hello   World--  ')).toBe('hello-world')
    expect(slugify('!!!')).toBe('')
    fc.assert(
      fc.property(fc.string(), (title) => {
        const slug = slugify(title)
        expect(slug).toMatch(/^(?:[a-z0-9]+(?:-[a-z0-9]+)*)?$/)
        expect(slugify(slug)).toBe(slug)
      }),
    )
  })

  it('splits keywords on commas, trimmed, without blanks or repeats', () => {
    expect(parseKeywords('seo, local  seo ,, SEO, speed')).toEqual(['seo', 'local seo', 'speed'])
    expect(parseKeywords('')).toEqual([])
    fc.assert(
      fc.property(fc.string(), (text) => {
        const words = parseKeywords(text)
        for (const w of words) {
          expect(w).toBe(w.trim())
          expect(w).not.toBe('')
          expect(w).not.toContain(',')
        }
        expect(new Set(words.map((w) => w.toLocaleLowerCase())).size).toBe(words.length)
        expect(parseKeywords(words.join(', '))).toEqual(words)
      }),
    )
  })

  it('counts the meta description towards 160 characters', () => {
    expect(metaCount('')).toEqual({ text: '160 characters left', over: false })
    expect(metaCount('x'.repeat(159))).toEqual({ text: '1 character left', over: false })
    expect(metaCount('x'.repeat(160))).toEqual({ text: '0 characters left', over: false })
    expect(metaCount('x'.repeat(161))).toEqual({ text: '1 character over 160', over: true })
    expect(metaCount('x'.repeat(175))).toEqual({ text: '15 characters over 160', over: true })
    // An emoji is one character for a reader.
    expect(metaCount('😀')).toEqual({ text: '159 characters left', over: false })
  })

  it('requires a title and keeps within the server limits', () => {
    expect(checkForm(EMPTY_FORM)).toEqual({ message: MSG_TITLE_REQUIRED, fields: { title: MSG_TITLE_REQUIRED } })
    expect(checkForm({ ...EMPTY_FORM, title: '   ' })?.message).toBe('Please enter a title')
    expect(checkForm({ ...EMPTY_FORM, title: 'Hello' })).toBeNull()
    expect(Object.keys(checkForm({ ...EMPTY_FORM, title: 'x'.repeat(201) })?.fields ?? {})).toEqual(['title'])
    expect(Object.keys(checkForm({ ...EMPTY_FORM, title: 'a', slug: 'x'.repeat(201) })?.fields ?? {})).toEqual(['slug'])
    expect(Object.keys(checkForm({ ...EMPTY_FORM, title: 'a', metaDescription: 'x'.repeat(301) })?.fields ?? {})).toEqual(['metaDescription'])
    const many = Array.from({ length: KEYWORDS_MAX + 1 }, (_, i) => `k${i}`).join(',')
    expect(Object.keys(checkForm({ ...EMPTY_FORM, title: 'a', keywords: many })?.fields ?? {})).toEqual(['keywords'])
    expect(Object.keys(checkForm({ ...EMPTY_FORM, title: 'a', keywords: 'x'.repeat(61) })?.fields ?? {})).toEqual(['keywords'])
  })

  it('sends the form trimmed, keywords as a list, and reads an article back into it', () => {
    const input = articleInput({ title: ' Hi ', slug: ' hi ', metaDescription: ' About. ', keywords: 'a, b', content: '<p>x</p>\n', format: 'html' })
    expect(input).toEqual({
      title: 'Hi',
      slug: 'hi',
      meta_description: 'About.',
      keywords: ['a', 'b'],
      body_format: 'html',
      content: '<p>x</p>\n',
      source: '',
    })
    const a = { ...sample[0], keywords: ['a', 'b'], meta_description: 'About.', content: '<p>x</p>' }
    expect(articleInput(formFor(a))).toEqual({
      title: a.title,
      slug: a.slug,
      meta_description: 'About.',
      keywords: ['a', 'b'],
      body_format: 'html',
      content: '<p>x</p>',
      source: '',
    })
  })

  it('sends a Markdown body as its source and reads it back as Markdown', () => {
    const md = { ...sample[0], body_format: 'markdown' as const, source: '# Hi\n\nText', content: '<h1>Hi</h1><p>Text</p>' }
    const form = formFor(md)
    expect(form).toMatchObject({ content: '# Hi\n\nText', format: 'markdown' })
    expect(articleInput(form)).toMatchObject({ body_format: 'markdown', source: '# Hi\n\nText', content: '' })
    expect(EMPTY_FORM.format).toBe('markdown')
    // Markdown has the source's limit, HTML the body's.
    expect(checkForm({ ...EMPTY_FORM, title: 'a', content: 'x'.repeat(100_001) })?.fields).toHaveProperty('content')
    expect(checkForm({ ...EMPTY_FORM, title: 'a', content: 'x'.repeat(100_001), format: 'html' })).toBeNull()
  })
})

describe('the slug of a draft', () => {
  it('is made from a title as the server makes it (the table the server is held to as well)', () => {
    expect(slugCases.length).toBeGreaterThanOrEqual(10)
    for (const { title, slug } of slugCases) expect(slugify(title)).toBe(slug)
  })

  it('always reads as a slug the server keeps as it is', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (title) => {
        const slug = slugify(title)
        expect(slug).toMatch(/^(?:[a-z0-9]+(?:-[a-z0-9]+)*)?$/)
        expect(slug.length).toBeLessThanOrEqual(192)
        expect(slugify(slug)).toBe(slug)
      }),
    )
  })

  it('follows the title of a new article or a draft while the slug is the title’s, never a published one', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.nat(50), (title, n) => {
        const derived = slugify(title)
        expect(slugFollowsTitle(null, title, '')).toBe(true)
        expect(slugFollowsTitle('draft', title, derived)).toBe(true)
        if (derived !== '') expect(slugFollowsTitle('draft', title, `${derived}-${n + 2}`)).toBe(true)
        expect(slugFollowsTitle('published', title, derived)).toBe(false)
        expect(slugFollowsTitle('archived', title, derived)).toBe(false)
      }),
    )
    // A slug the admin chose does not follow.
    expect(slugFollowsTitle('draft', 'Why Speed Matters', 'page-speed')).toBe(false)
    expect(slugFollowsTitle('draft', 'Why Speed Matters', 'why-speed-matters-extra')).toBe(false)
  })
})

describe('generation progress', () => {
  it('grows with time, never passes 95 and is straight up to 80%', () => {
    expect(generationProgress(0, 10_000)).toBe(0)
    expect(generationProgress(5_000, 10_000)).toBe(50)
    expect(generationProgress(8_000, 10_000)).toBe(80)
    fc.assert(
      fc.property(fc.nat(3_600_000), fc.nat(3_600_000), fc.integer({ min: 1_000, max: 120_000 }), (a, b, expected) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a]
        const p = generationProgress(lo, expected)
        expect(p).toBeGreaterThanOrEqual(0)
        expect(p).toBeLessThanOrEqual(95)
        expect(generationProgress(hi, expected)).toBeGreaterThanOrEqual(p)
      }),
    )
  })

  it('writes the elapsed time as minutes and seconds', () => {
    expect(elapsedText(0)).toBe('0:00')
    expect(elapsedText(9_400)).toBe('0:09')
    expect(elapsedText(65_000)).toBe('1:05')
    expect(elapsedText(-5)).toBe('0:00')
  })
})
