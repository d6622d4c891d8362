import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { mockSignedIn, renderApp, sentBody, testUser, type FakeResponse } from '@test/utils'
import type { Article, ArticleStatus, Generation, Idea } from '../articles'

const admin = { ...testUser, id: 2, email: 'admin@example.eu', first_name: 'Grace', last_name: 'Hopper', role: 'admin' }

function article(id: number, title: string, slug: string, status: ArticleStatus, created: string): Article {
  return {
    id,
    title,
    slug,
    meta_description: `About ${title}.`,
    keywords: ['seo'],
    content: `<p>${title}</p>`,
    body_format: 'html',
    source: '',
    status,
    created_by: 2,
    created_at: created,
    updated_at: created,
    published_at: status === 'published' ? created : null,
  }
}

const IDEAS: Idea[] = [
  { title: 'Fast Sites for Clinics', description: 'Why speed wins patients.', keywords: ['speed', 'clinic', 'seo'], outline: ['Intro', 'Speed', 'Close'] },
  { title: 'Booking Online', description: 'Let patients book.', keywords: ['booking', 'clinic', 'online'], outline: ['Why', 'How', 'Next'] },
  { title: 'Local SEO Basics', description: 'Be found nearby.', keywords: ['local', 'seo', 'maps'], outline: ['Maps', 'Reviews', 'Pages'] },
]

const ERROR = (status: number, message: string, code = 'bad_request', fields?: Record<string, string>): FakeResponse => ({
  status,
  body: { error: { code, message, ...(fields ? { fields } : {}) } },
})

interface FakeOptions {
  configured?: boolean
  articles?: Article[]
  /** How the generation jobs end: polled once as running, then this. */
  ideas?: 'done' | 'failed'
  article?: 'done' | 'failed'
}

/** The admin API of module `seo` as the server answers it, in memory. */
function fakeServer({ configured = true, articles: initial, ideas = 'done', article: articleOutcome = 'done' }: FakeOptions = {}) {
  const articles: Article[] = initial ?? [
    article(3, 'Local SEO for Dentists', 'local-seo-for-dentists', 'published', '2026-11-22T09:00:00+00:00'),
    article(2, 'Why Speed Matters', 'page-speed', 'draft', '2026-11-21T09:00:00+00:00'),
    article(1, 'Old News', 'old-news', 'archived', '2026-11-20T09:00:00+00:00'),
  ]
  const jobs = new Map<string, { job: Generation; polls: number; end: Generation }>()
  let next = 10
  const generation = (kind: 'ideas' | 'article', over: Partial<Generation>): Generation => ({
    id: `g${next++}`,
    kind,
    status: 'queued',
    topic: null,
    title: null,
    ideas: null,
    article_id: null,
    created_at: '2026-11-23T10:00:00+00:00',
    error: null,
    ...over,
  })
  const fetchMock = mockSignedIn(admin, (method, url, init) => {
    const body = init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {}
    if (method === 'GET' && url === '/api/admin/ai') return { status: 200, body: { configured, model: configured ? 'gpt-4o-mini' : null } }
    if (method === 'GET' && url === '/api/admin/articles') return { status: 200, body: { articles } }
    if (method === 'POST' && url === '/api/admin/blog/preview') {
      // A tiny Markdown: "# x" is a heading, other lines paragraphs; scripts go.
      const text = String(body.body).replace(/<script[\s\S]*?<\/script>/g, '')
      const html =
        body.format === 'markdown'
          ? text
              .split('\n')
              .filter((line) => line.trim() !== '')
              .map((line) => (line.startsWith('# ') ? `<h1>${line.slice(2)}</h1>` : `<p>${line}</p>`))
              .join('')
          : text
      return { status: 200, body: { html } }
    }
    if (method === 'POST' && url === '/api/admin/articles') {
      if (!String(body.title ?? '').trim()) return ERROR(400, 'Please enter a title', 'invalid', { title: 'Please enter a title' })
      const created = {
        ...article(20, String(body.title), String(body.slug || 'hand-written'), 'draft', '2026-11-23T11:00:00+00:00'),
        content: String(body.content),
        body_format: body.body_format === 'markdown' ? ('markdown' as const) : ('html' as const),
        source: String(body.source ?? ''),
      }
      articles.unshift(created)
      return { status: 201, body: created }
    }
    const one = /^\/api\/admin\/articles\/(\d+)(?:\/(publish|archive|draft))?$/.exec(url)
    if (one) {
      const index = articles.findIndex((a) => a.id === Number(one[1]))
      if (index < 0) return ERROR(404, 'No such article.', 'not_found')
      const current = articles[index]
      if (method === 'GET' && !one[2]) return { status: 200, body: current }
      if (method === 'PUT' && !one[2]) {
        articles[index] = { ...current, ...(body as Partial<Article>) }
        return { status: 200, body: articles[index] }
      }
      if (method === 'POST' && one[2]) {
        const status = ({ publish: 'published', archive: 'archived', draft: 'draft' } as const)[one[2] as 'publish' | 'archive' | 'draft']
        if (current.slug === 'conflict') return ERROR(409, 'This article was changed meanwhile.', 'conflict')
        articles[index] = { ...current, status }
        return { status: 200, body: articles[index] }
      }
    }
    if (method === 'POST' && url === '/api/admin/article-ideas') {
      if (!configured) return ERROR(503, 'AI is not configured', 'ai_not_configured')
      if (!String(body.topic ?? '').trim()) return ERROR(400, 'Please enter a topic', 'invalid', { topic: 'Please enter a topic' })
      const job = generation('ideas', { topic: String(body.topic) })
      const end =
        ideas === 'done'
          ? { ...job, status: 'done' as const, ideas: IDEAS }
          : { ...job, status: 'failed' as const, error: 'The AI provider refused the key (401).' }
      jobs.set(job.id, { job, polls: 0, end })
      return { status: 202, body: job }
    }
    if (method === 'POST' && url === '/api/admin/article-drafts') {
      const job = generation('article', { title: String(body.title) })
      const saved = article(30, String(body.title), 'fast-sites-for-clinics', 'draft', '2026-11-23T12:00:00+00:00')
      const end =
        articleOutcome === 'done'
          ? { ...job, status: 'done' as const, article_id: saved.id }
          : { ...job, status: 'failed' as const, error: 'The AI answer was not valid JSON.' }
      jobs.set(job.id, { job, polls: 0, end: end })
      if (articleOutcome === 'done') articles.unshift(saved)
      return { status: 202, body: job }
    }
    const poll = /^\/api\/admin\/generations\/(\w+)$/.exec(url)
    if (method === 'GET' && poll) {
      const entry = jobs.get(poll[1])
      if (!entry) return ERROR(404, 'No such generation.', 'not_found')
      entry.polls += 1
      return { status: 200, body: entry.polls < 2 ? { ...entry.job, status: 'running' } : entry.end }
    }
    return undefined
  })
  return { fetchMock, articles }
}

async function openPage(path = '/dashboard/seo') {
  renderApp(path)
  return screen.findByRole('table')
}

function rowOf(table: HTMLElement, title: string): HTMLElement {
  const row = within(table)
    .getAllByRole('row')
    .find((r) => r.textContent?.includes(title))
  if (!row) throw new Error(`no row for ${title}`)
  return row
}

// The first render loads the page's lazy chunk: slow on a busy machine.
describe('/dashboard/seo', { timeout: 30_000 }, () => {
  it('has Refresh, New Article, the topic field and the table with its columns and actions', async () => {
    fakeServer()
    const table = await openPage()
    expect(screen.getByRole('heading', { level: 1, name: 'SEO Articles' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'New Article' })).toBeInTheDocument()
    expect(await screen.findByRole('textbox', { name: 'Topic' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Generate Ideas' })).toBeInTheDocument()
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Article', 'Status', 'Date', 'Actions'])

    const published = rowOf(table, 'Local SEO for Dentists')
    expect(published).toHaveTextContent('About Local SEO for Dentists.')
    expect(within(published).getByRole('link', { name: '/blog/local-seo-for-dentists' })).toHaveAttribute('href', '/blog/local-seo-for-dentists')
    expect(published).toHaveTextContent('Published')
    expect(published).toHaveTextContent('22 Nov 2026')
    const buttons = (row: HTMLElement) => within(row).getAllByRole('button').map((b) => b.textContent?.replace(/ “.*”$/, ''))
    expect(buttons(published)).toEqual(['Edit', 'Archive', 'Back to draft'])
    expect(buttons(rowOf(table, 'Why Speed Matters'))).toEqual(['Edit', 'Publish', 'Archive'])
    expect(buttons(rowOf(table, 'Old News'))).toEqual(['Edit', 'Back to draft'])
    expect(rowOf(table, 'Why Speed Matters')).toHaveTextContent('/blog/page-speed')
    expect(screen.getByText('3 articles')).toBeInTheDocument()
  })

  it('searches title or slug case-insensitively and filters by status, with the empty states', async () => {
    fakeServer()
    const user = userEvent.setup()
    const table = await openPage()
    const search = screen.getByRole('searchbox', { name: 'Search articles' })
    await user.type(search, 'PAGE-sp')
    expect(within(table).getAllByRole('row')).toHaveLength(2)
    expect(rowOf(table, 'Why Speed Matters')).toBeInTheDocument()
    expect(screen.getByText('1 of 3 articles')).toBeInTheDocument()
    await user.clear(search)
    await user.type(search, 'dentists')
    expect(rowOf(screen.getByRole('table'), 'Local SEO for Dentists')).toBeInTheDocument()

    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Drafts')
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
    expect(screen.getByText('No articles found')).toBeInTheDocument()
    expect(screen.getByText('Try adjusting your search')).toBeInTheDocument()
    await user.clear(search)
    expect(rowOf(screen.getByRole('table'), 'Why Speed Matters')).toBeInTheDocument()
    const options = within(screen.getByRole('combobox', { name: 'Status' }))
      .getAllByRole('option')
      .map((o) => o.textContent)
    expect(options).toEqual(['All Status', 'Drafts', 'Published', 'Archived'])
  })

  it('says to start by generating when there are no articles', async () => {
    fakeServer({ articles: [] })
    renderApp('/dashboard/seo')
    expect(await screen.findByText('No articles found')).toBeInTheDocument()
    expect(screen.getByText('Start by generating some articles')).toBeInTheDocument()
  })

  it('publishes a draft, archives and moves back to draft in place', async () => {
    const { fetchMock } = fakeServer()
    const user = userEvent.setup()
    const table = await openPage()
    await user.click(within(rowOf(table, 'Why Speed Matters')).getByRole('button', { name: /^Publish/ }))
    await waitFor(() => expect(rowOf(table, 'Why Speed Matters')).toHaveTextContent('Published'))
    expect(fetchMock).toHaveBeenCalledWith('/api/admin/articles/2/publish', expect.objectContaining({ method: 'POST' }))
    // Publish is gone from the row: the focus stays in it, on its first button.
    await waitFor(() => expect(within(rowOf(table, 'Why Speed Matters')).getByRole('button', { name: /^Edit/ })).toHaveFocus())
    expect(screen.getByText('“Why Speed Matters” is now published.')).toBeInTheDocument()

    await user.click(within(rowOf(table, 'Why Speed Matters')).getByRole('button', { name: /^Archive/ }))
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Archive this article?' })).getByRole('button', { name: 'Archive' }))
    await waitFor(() => expect(rowOf(table, 'Why Speed Matters')).toHaveTextContent('Archived'))
    await user.click(within(rowOf(table, 'Why Speed Matters')).getByRole('button', { name: /^Back to draft/ }))
    await waitFor(() => expect(rowOf(table, 'Why Speed Matters')).toHaveTextContent('Draft'))
    expect(within(rowOf(table, 'Why Speed Matters')).getByRole('button', { name: /^Publish/ })).toBeInTheDocument()
  })

  it('shows a failed action in the red box titled Error', async () => {
    fakeServer({ articles: [article(5, 'Clash', 'conflict', 'draft', '2026-11-22T09:00:00+00:00')] })
    const user = userEvent.setup()
    const table = await openPage()
    await user.click(within(rowOf(table, 'Clash')).getByRole('button', { name: /^Publish/ }))
    const alert = await screen.findByRole('alert')
    expect(within(alert).getByText('Error')).toBeInTheDocument()
    expect(alert).toHaveTextContent('This article was changed meanwhile.')
    expect(rowOf(table, 'Clash')).toHaveTextContent('Draft')
  })

  it('asks for a topic before generating, without calling the server', async () => {
    const { fetchMock } = fakeServer()
    const user = userEvent.setup()
    await openPage()
    await user.click(await screen.findByRole('button', { name: 'Generate Ideas' }))
    const alert = await screen.findByRole('alert')
    expect(within(alert).getByText('Error')).toBeInTheDocument()
    expect(alert).toHaveTextContent('Please enter a topic')
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/admin/article-ideas')).toBe(false)
  })

  it('generates three ideas, writes the clicked one as a draft, clears the error on a new generation, and starts over', async () => {
    const { fetchMock } = fakeServer()
    const user = userEvent.setup()
    await openPage()
    await user.click(await screen.findByRole('button', { name: 'Generate Ideas' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter a topic')

    await user.type(screen.getByRole('textbox', { name: 'Topic' }), 'dental clinics')
    await user.click(screen.getByRole('button', { name: 'Generate Ideas' }))
    // The error box goes as the new generation starts; progress shows while the job runs.
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument())
    expect(await screen.findByText('Generating ideas for “dental clinics”…')).toBeInTheDocument()
    expect(screen.getByRole('progressbar', { name: 'Generating ideas' })).toBeInTheDocument()
    expect(sentBody(fetchMock, '/api/admin/article-ideas')).toEqual({ topic: 'dental clinics' })

    const ideas = await screen.findByRole('heading', { name: 'Ideas for “dental clinics”' })
    const list = within(ideas.parentElement as HTMLElement)
    expect(screen.getByText('3 ideas for “dental clinics” are ready: choose one to write it.')).toBeInTheDocument()
    expect(list.getAllByRole('heading', { level: 4 }).map((h) => h.textContent)).toEqual(IDEAS.map((i) => i.title))
    expect(list.getByText('Why speed wins patients.')).toBeInTheDocument()
    expect(list.getAllByRole('list', { name: 'Keywords' })[0]).toHaveTextContent('speedclinicseo')
    expect(list.getAllByRole('list', { name: 'Outline' })[0]).toHaveTextContent('IntroSpeedClose')

    await user.click(list.getByRole('button', { name: 'Write this article: Fast Sites for Clinics' }))
    expect(await screen.findByText('Writing “Fast Sites for Clinics” and saving it as a draft…')).toBeInTheDocument()
    expect(sentBody(fetchMock, '/api/admin/article-drafts')).toEqual(IDEAS[0])
    expect(await screen.findByText('“Fast Sites for Clinics” was saved as a draft.')).toBeInTheDocument()
    // The list is loaded again: the new draft is in it.
    expect(rowOf(await screen.findByRole('table'), 'Fast Sites for Clinics')).toHaveTextContent('Draft')

    // Editing the draft and coming back keeps the ideas; the focus returns to the page heading.
    await user.click(screen.getByRole('button', { name: 'Edit the draft' }))
    expect(await screen.findByRole('textbox', { name: /^Title/ })).toHaveValue('Fast Sites for Clinics')
    await user.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(await screen.findByRole('heading', { name: 'Ideas for “dental clinics”' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 1, name: 'SEO Articles' })).toHaveFocus()

    await user.click(screen.getByRole('button', { name: 'Start Over' }))
    expect(screen.queryByRole('heading', { name: /Ideas for/ })).not.toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: 'Topic' })).toHaveValue('')
    expect(screen.queryByText(/was saved as a draft/)).not.toBeInTheDocument()
  })

  it('generates ideas for the topic the box holds (also one put there without typing, as autofill does); Start Over shows once anything is typed', async () => {
    const { fetchMock } = fakeServer()
    const user = userEvent.setup()
    await openPage()
    const topic = (await screen.findByRole('textbox', { name: 'Topic' })) as HTMLInputElement
    expect(screen.queryByRole('button', { name: 'Start Over' })).not.toBeInTheDocument()
    await user.type(topic, ' ')
    expect(screen.getByRole('button', { name: 'Start Over' })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Start Over' }))
    expect(topic).toHaveValue('')
    expect(screen.queryByRole('button', { name: 'Start Over' })).not.toBeInTheDocument()
    topic.value = 'bakeries'
    await user.click(screen.getByRole('button', { name: 'Generate Ideas' }))
    expect(await screen.findByText('Generating ideas for “bakeries”…')).toBeInTheDocument()
    expect(sentBody(fetchMock, '/api/admin/article-ideas')).toEqual({ topic: 'bakeries' })
  })

  it('shows a failed generation in the red Error box', async () => {
    fakeServer({ ideas: 'failed' })
    const user = userEvent.setup()
    await openPage()
    await user.type(await screen.findByRole('textbox', { name: 'Topic' }), 'clinics')
    await user.click(screen.getByRole('button', { name: 'Generate Ideas' }))
    const alert = await screen.findByRole('alert')
    expect(within(alert).getByText('Error')).toBeInTheDocument()
    expect(alert).toHaveTextContent('The AI provider refused the key (401).')
    expect(screen.getByRole('button', { name: 'Generate Ideas' })).toBeEnabled()
  })

  it('says AI is not configured where it would generate, and New Article still writes one by hand', async () => {
    const { fetchMock } = fakeServer({ configured: false })
    const user = userEvent.setup()
    await openPage()
    expect(await screen.findByText('AI is not configured')).toBeInTheDocument()
    expect(screen.getByText('AGENCY_AI_API_KEY')).toBeInTheDocument()
    expect(screen.queryByRole('textbox', { name: 'Topic' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Generate Ideas' })).not.toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'New Article' }))
    const heading = await screen.findByRole('heading', { level: 1, name: 'New Article' })
    expect(heading).toHaveFocus()
    await user.click(screen.getByRole('button', { name: 'Save draft' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter a title')
    expect(screen.getByRole('textbox', { name: /^Title/ })).toHaveAttribute('aria-invalid', 'true')

    await user.type(screen.getByRole('textbox', { name: /^Title/ }), 'Hand Written')
    // The new article's slug follows the title.
    expect(screen.getByRole('textbox', { name: 'Slug' })).toHaveValue('hand-written')
    await user.type(screen.getByRole('textbox', { name: 'Meta description' }), 'Short.')
    expect(screen.getByText('154 characters left')).toBeInTheDocument()
    await user.type(screen.getByRole('textbox', { name: 'Keywords' }), 'one, two')
    await user.type(screen.getByRole('textbox', { name: 'Body (Markdown)' }), '# Hi')
    await user.click(screen.getByRole('button', { name: 'Save draft' }))
    expect(await screen.findByText('“Hand Written” was saved as a draft.')).toBeInTheDocument()
    const post = fetchMock.mock.calls.find(([url, init]) => url === '/api/admin/articles' && (init as RequestInit).method === 'POST')
    expect(JSON.parse(String((post?.[1] as RequestInit).body))).toEqual({
      title: 'Hand Written',
      slug: 'hand-written',
      meta_description: 'Short.',
      keywords: ['one', 'two'],
      body_format: 'markdown',
      content: '',
      source: '# Hi',
    })
    expect(rowOf(await screen.findByRole('table'), 'Hand Written')).toHaveTextContent('Draft')
  })

  it('saves what the inputs hold (also values put there without typing, as autofill does); typing in a field takes its own message away', async () => {
    const { fetchMock } = fakeServer()
    const user = userEvent.setup()
    await openPage()
    await user.click(await screen.findByRole('button', { name: 'New Article' }))
    await screen.findByRole('heading', { level: 1, name: 'New Article' })
    await user.click(screen.getByRole('button', { name: 'Save draft' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter a title')
    const title = screen.getByRole('textbox', { name: /^Title/ }) as HTMLInputElement
    expect(title).toHaveAttribute('aria-invalid', 'true')
    await user.type(title, ' ')
    expect(title).not.toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a title')

    title.value = 'Filled In'
    ;(screen.getByRole('textbox', { name: 'Keywords' }) as HTMLInputElement).value = 'a, b'
    await user.click(screen.getByRole('button', { name: 'Save draft' }))
    expect(await screen.findByText('“Filled In” was saved as a draft.')).toBeInTheDocument()
    const post = fetchMock.mock.calls.find(([url, init]) => url === '/api/admin/articles' && (init as RequestInit).method === 'POST')
    expect(JSON.parse(String((post?.[1] as RequestInit).body))).toEqual({
      title: 'Filled In',
      slug: '',
      meta_description: '',
      keywords: ['a', 'b'],
      body_format: 'markdown',
      content: '',
      source: '',
    })
  })

  it('edits an article with a live preview of the sanitised body', async () => {
    const { fetchMock } = fakeServer()
    const user = userEvent.setup()
    const table = await openPage()
    await user.click(within(rowOf(table, 'Why Speed Matters')).getByRole('button', { name: /^Edit/ }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit article' })).toBeInTheDocument()
    const title = screen.getByRole('textbox', { name: /^Title/ })
    expect(title).toHaveValue('Why Speed Matters')
    expect(screen.getByRole('textbox', { name: 'Keywords' })).toHaveValue('seo')
    const body = screen.getByRole('textbox', { name: 'Body (HTML)' })
    await user.clear(body)
    await user.type(body, '<p>Fast</p><script>alert(1)</script>')
    const preview = await screen.findByRole('region', { name: /Preview/ })
    await waitFor(() => expect(preview.innerHTML).toBe('<p>Fast</p>'))
    expect(preview.querySelector('script')).toBeNull()

    await user.clear(title)
    await user.type(title, 'Why Speed Still Matters')
    await user.click(screen.getByRole('button', { name: 'Save changes' }))
    expect(await screen.findByText('“Why Speed Still Matters” was saved.')).toBeInTheDocument()
    const put = fetchMock.mock.calls.find(([url, init]) => url === '/api/admin/articles/2' && (init as RequestInit).method === 'PUT')
    expect(JSON.parse(String((put?.[1] as RequestInit).body))).toMatchObject({ title: 'Why Speed Still Matters', content: '<p>Fast</p><script>alert(1)</script>' })
    expect(rowOf(await screen.findByRole('table'), 'Why Speed Still Matters')).toBeInTheDocument()
  })

  it('opens the editor from the address and Cancel goes back to the list', async () => {
    const { fetchMock } = fakeServer()
    const user = userEvent.setup()
    renderApp('/dashboard/seo?edit=3')
    expect(await screen.findByRole('textbox', { name: /^Title/ })).toHaveValue('Local SEO for Dentists')
    // The stored body (sanitised on save) is its own preview: shown at once, not asked for.
    expect(screen.getByRole('region', { name: /Preview/ }).innerHTML).toBe('<p>Local SEO for Dentists</p>')
    await new Promise((resolve) => setTimeout(resolve, 600))
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/admin/blog/preview')).toBe(false)
    expect(screen.getByText(/keeps its old address working/)).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(await screen.findByRole('table')).toBeInTheDocument()
  })

  it('asks before archiving, in a dialog the keyboard can answer; Cancel and Escape archive nothing', async () => {
    const { fetchMock } = fakeServer()
    const user = userEvent.setup()
    const table = await openPage()
    const archive = within(rowOf(table, 'Local SEO for Dentists')).getByRole('button', { name: /^Archive/ })
    expect(archive).toHaveAttribute('aria-haspopup', 'dialog')
    await user.click(archive)
    const dialog = await screen.findByRole('alertdialog', { name: 'Archive this article?' })
    expect(dialog).toHaveAttribute('aria-modal', 'true')
    expect(dialog).toHaveAccessibleDescription(/“Local SEO for Dentists” leaves the blog/)
    const cancel = within(dialog).getByRole('button', { name: 'Cancel' })
    const confirm = within(dialog).getByRole('button', { name: 'Archive' })
    expect(cancel).toHaveFocus()
    // Tab stays inside the dialog.
    await user.tab()
    expect(confirm).toHaveFocus()
    await user.tab()
    expect(cancel).toHaveFocus()
    await user.tab({ shift: true })
    expect(confirm).toHaveFocus()
    await user.keyboard('{Escape}')
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
    expect(archive).toHaveFocus()
    await user.keyboard('{Enter}')
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/archive'))).toBe(false)
    expect(rowOf(table, 'Local SEO for Dentists')).toHaveTextContent('Published')

    // Enter on the focused Archive button of the dialog archives.
    await user.click(archive)
    await user.tab()
    await user.keyboard('{Enter}')
    await waitFor(() => expect(rowOf(table, 'Local SEO for Dentists')).toHaveTextContent('Archived'))
    expect(fetchMock).toHaveBeenCalledWith('/api/admin/articles/3/archive', expect.objectContaining({ method: 'POST' }))
  })

  it('writes a new article in Markdown with a live preview, and switching to HTML keeps what the preview shows', async () => {
    const { fetchMock } = fakeServer()
    const user = userEvent.setup()
    await openPage()
    await user.click(screen.getByRole('button', { name: 'New Article' }))
    await screen.findByRole('heading', { level: 1, name: 'New Article' })
    expect(screen.getByRole('radio', { name: 'Markdown' })).toBeChecked()
    const body = screen.getByRole('textbox', { name: 'Body (Markdown)' })
    await user.type(body, '# Fast{Enter}Pages sell.')
    const preview = await screen.findByRole('region', { name: /Preview/ })
    await waitFor(() => expect(preview.innerHTML).toBe('<h1>Fast</h1><p>Pages sell.</p>'))
    expect(sentBody(fetchMock, '/api/admin/blog/preview')).toEqual({ format: 'markdown', body: '# Fast\nPages sell.' })

    await user.click(screen.getByRole('radio', { name: 'HTML' }))
    const html = await screen.findByRole('textbox', { name: 'Body (HTML)' })
    await waitFor(() => expect(html).toHaveValue('<h1>Fast</h1><p>Pages sell.</p>'))
    expect(screen.getByRole('radio', { name: 'HTML' })).toBeChecked()
    // Back to Markdown: the HTML stays as it is.
    await user.click(screen.getByRole('radio', { name: 'Markdown' }))
    expect(screen.getByRole('textbox', { name: 'Body (Markdown)' })).toHaveValue('<h1>Fast</h1><p>Pages sell.</p>')
  })

  it('opens an HTML article (AI-written) in HTML', async () => {
    fakeServer()
    renderApp('/dashboard/seo?edit=2')
    expect(await screen.findByRole('textbox', { name: 'Body (HTML)' })).toHaveValue('<p>Why Speed Matters</p>')
    expect(screen.getByRole('radio', { name: 'HTML' })).toBeChecked()
  })

  it('lets a draft’s slug follow its title until the slug is edited by hand; a published slug stays', async () => {
    fakeServer({
      articles: [
        article(7, 'Draft Title', 'draft-title', 'draft', '2026-11-22T09:00:00+00:00'),
        article(8, 'Live Title', 'live-title', 'published', '2026-11-22T09:00:00+00:00'),
      ],
    })
    const user = userEvent.setup()
    renderApp('/dashboard/seo?edit=7')
    const title = await screen.findByRole('textbox', { name: /^Title/ })
    const slug = screen.getByRole('textbox', { name: 'Slug' })
    await user.clear(title)
    await user.type(title, 'Better Title!')
    expect(slug).toHaveValue('better-title')
    expect(screen.getByText(/Follows the title until you change it/)).toBeInTheDocument()
    await user.type(slug, '-x')
    await user.type(title, ' Again')
    expect(slug).toHaveValue('better-title-x')
    await user.click(screen.getByRole('button', { name: 'Cancel' }))

    await user.click(within(rowOf(await screen.findByRole('table'), 'Live Title')).getByRole('button', { name: /^Edit/ }))
    const liveTitle = await screen.findByRole('textbox', { name: /^Title/ })
    await user.type(liveTitle, ' Two')
    expect(screen.getByRole('textbox', { name: 'Slug' })).toHaveValue('live-title')
  })

  it('refuses a non-admin', async () => {
    mockSignedIn(testUser)
    renderApp('/dashboard/seo')
    expect(await screen.findByText('Only admins can open the article manager.')).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'SEO Articles' })).not.toBeInTheDocument()
  })
})
