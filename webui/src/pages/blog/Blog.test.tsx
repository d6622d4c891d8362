import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockFetch, renderApp } from '@test/utils'

const summary = (n: number) => ({
  id: n,
  title: `Post ${n}`,
  slug: `post-${n}`,
  meta_description: `About post ${n}.`,
  published_at: `2026-11-${String(n).padStart(2, '0')}T12:00:00Z`,
})
const ARTICLE = {
  id: 2,
  title: 'Post 2',
  slug: 'post-2',
  meta_description: 'About post 2.',
  keywords: ['speed', 'funnels'],
  content: '<h2>Why speed</h2><p>Because.</p>',
  published_at: '2026-11-02T12:00:00Z',
  updated_at: '2026-11-03T12:00:00Z',
  language: 'en',
  call_to_action: 'start',
  cover: null,
  author: { name: 'Anna Admin', bio: 'Builds fast websites.' },
  related: [summary(1)],
}
const unauthorized = { status: 401, body: { error: { code: 'unauthorized', message: 'Not signed in.' } } }
const notFound = { status: 404, body: { error: { code: 'article_not_found', message: 'This article does not exist.' } } }

describe('Blog', () => {
  it("shows 'Latest Articles' with a spinner, then the grid with Read More links, then an article", async () => {
    mockFetch((_m, url) => {
      if (url === '/api/blog/articles?page=1') return { status: 200, body: { articles: [summary(2), summary(1)], page: 1, pages: 1, total: 2 } }
      if (url === '/api/blog/articles/post-2') return { status: 200, body: ARTICLE }
      return unauthorized
    })
    renderApp('/blog')
    expect(await screen.findByRole('heading', { level: 1, name: 'Latest Articles' })).toBeInTheDocument()
    expect(screen.getByRole('status')).toHaveTextContent('Loading articles')
    const card = (await screen.findByRole('heading', { level: 2, name: 'Post 2' })).closest('article')
    expect(card).not.toBeNull()
    expect(within(card as HTMLElement).getByText('November 2, 2026')).toBeInTheDocument()
    expect(within(card as HTMLElement).getByText('About post 2.')).toBeInTheDocument()
    const more = within(card as HTMLElement).getByRole('link', { name: 'Read More: Post 2' })
    expect(more).toHaveAttribute('href', '/blog/post-2')
    expect(screen.queryByRole('navigation', { name: 'Blog pages' })).toBeNull()

    await userEvent.click(more)
    expect(await screen.findByRole('heading', { level: 1, name: 'Post 2' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 2, name: 'Why speed' })).toBeInTheDocument()
    expect(within(screen.getByRole('list', { name: 'Keywords' })).getAllByRole('listitem')).toHaveLength(2)
    expect(document.title).toBe('Post 2 | agency')
    expect(screen.getByRole('link', { name: 'Back to all articles' })).toHaveAttribute('href', '/blog')
    // The end of the article: its writer, the chosen call to action, what to read next.
    expect(screen.getByRole('heading', { level: 2, name: 'About the author' })).toBeInTheDocument()
    expect(screen.getByText('Anna Admin')).toBeInTheDocument()
    expect(screen.getByText('Builds fast websites.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Start your project' })).toHaveAttribute('href', '/start')
    expect(screen.getByRole('link', { name: 'Post 1' })).toHaveAttribute('href', '/blog/post-1')
    expect(document.documentElement.lang).toBe('en')
  }, 20_000) // two lazy page chunks and a click: slow on a busy machine

  it('pages past 12 articles', async () => {
    mockFetch((_m, url) => {
      if (url === '/api/blog/articles?page=2') return { status: 200, body: { articles: [summary(1)], page: 2, pages: 2, total: 13 } }
      return unauthorized
    })
    renderApp('/blog?page=2')
    const pages = await screen.findByRole('navigation', { name: 'Blog pages' })
    expect(within(pages).getByText('Page 2 of 2')).toBeInTheDocument()
    expect(within(pages).getByRole('link', { name: 'Newer articles' })).toHaveAttribute('href', '/blog')
    expect(within(pages).queryByRole('link', { name: 'Older articles' })).toBeNull()
  })

  it('an empty blog, and a failed load, show the empty list (spec: the failure is only logged)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    mockFetch((_m, url) => (url.startsWith('/api/blog/') ? { status: 503 } : unauthorized))
    renderApp('/blog')
    expect(await screen.findByText('No articles yet. Check back soon.')).toBeInTheDocument()
    expect(warn).toHaveBeenCalled()
    warn.mockRestore()
  })

  it('an unknown article shows the not-found page with a way back to the blog', async () => {
    mockFetch((_m, url) => (url === '/api/blog/articles/nope' ? notFound : unauthorized))
    renderApp('/blog/nope')
    expect(await screen.findByRole('heading', { level: 1, name: 'Article not found' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to all articles' })).toHaveAttribute('href', '/blog')
  })
})
