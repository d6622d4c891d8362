import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'

// Each test types into two fields several times: slow on a loaded 2-core machine.
vi.setConfig({ testTimeout: 30_000 })
import { mockFetch, renderApp, sentBody, type FakeResponse } from '@test/utils'

const PAGES = [
  {
    path: '/ai-analysis', source: 'ai-analysis', variant: 'general', title: 'Reverse Engineer Any Website with AI',
    urlLabel: 'Website URL', emailLabel: 'Your Email', button: 'Analyze Website with AI', note: 'Instant analysis. No credit card required.',
    urlMsg: 'Please enter a website URL', emailMsg: 'Please enter your email address',
    names: ['Strategy', 'Funnel', 'AI Readiness'],
    sections: ['Strategy Overview', 'Sales Funnel Analysis', 'Customer Journey Analysis', 'AI Opportunities'],
    columns: ['AI Customer Support', 'AI SEO Opportunities', 'AI Personalization'],
    cta: 'Implement These Improvements Now', critical: null, bar: null,
  },
  {
    path: '/business-analysis', source: 'business-analysis', variant: 'lead', title: 'We Already Reverse Engineered Your Website.',
    urlLabel: 'Website URL', emailLabel: 'Your Email', button: 'Show Me My Report →', note: '2-minute analysis. No credit card needed.',
    urlMsg: 'Please enter your website URL', emailMsg: 'Please enter your email address',
    names: ['Strategy', 'Funnel', 'AI Readiness'],
    sections: ['Strategy Overview', 'Sales Funnel Analysis', 'Customer Journey Analysis', 'AI Opportunities'],
    columns: ['AI Customer Support', 'AI SEO Opportunities', 'AI Personalization'],
    cta: 'Implement These Improvements Now', critical: 'Critical Business Impact Found', bar: "2 rebuild spots left today – don't miss out",
  },
  {
    path: '/technical-analysis', source: 'technical-analysis', variant: 'technical', title: 'Deep Technical Analysis of Your Stack',
    urlLabel: 'Website URL', emailLabel: 'Your Email', button: 'Run Technical Analysis →', note: 'Free analysis. No credit card needed.',
    urlMsg: 'Please enter your website URL', emailMsg: 'Please enter your email address',
    names: ['Architecture', 'Performance', 'Security'],
    sections: ['Technical Architecture Overview', 'Performance Analysis', 'Security Analysis'],
    columns: ['Transport and Headers', 'Third-Party Scripts', 'Forms and Data'],
    cta: 'Fix Technical Issues Now', critical: 'Critical Technical Issues Found', bar: "2 rebuild spots left today – don't miss out",
  },
  {
    path: '/agency-analysis', source: 'agency-analysis', variant: 'agency', title: 'Agency Growth Analysis',
    urlLabel: 'Client Website URL', emailLabel: 'Your Agency Email', button: 'Analyze Growth Potential →', note: 'Free analysis. No credit card needed.',
    urlMsg: "Please enter your client's website URL", emailMsg: 'Please enter your agency email address',
    names: ['Client Value', 'Scalability', 'Profitability'],
    sections: ['Growth Strategy Overview', 'Revenue Opportunities', 'Growth Roadmap', 'Services to Offer'],
    columns: ['Premium Services', 'Growth Services', 'Client Services'],
    cta: 'Scale Your Agency Now', critical: null, bar: "2 agency spots left today – don't miss out",
  },
] as const

const ID = 'c'.repeat(32)
const NOTICE = (email: string) => `You'll receive your detailed analysis report at ${email}`
const BAD_DOMAIN = 'Please enter a valid domain (e.g., example.com)'
const UNREACHABLE = 'Unable to access the website. Please check if the domain is correct and the website is accessible.'

function speedTest(status: string, score: number | null, error: string | null = null) {
  return {
    id: 'd'.repeat(32), status, domain: 'example.com', strategy: 'mobile', created_at: '2026-11-24T20:00:00Z', error,
    result: score === null ? null : {
      score, rating: score >= 90 ? 'Excellent' : score >= 70 ? 'Needs Improvement' : 'Poor', speed_index_ms: 3180,
      total_blocking_time_ms: 640, largest_contentful_paint_ms: null, cumulative_layout_shift: null, first_contentful_paint_ms: null,
      field_data: [], opportunities: [], provider: 'psi',
    },
  }
}

const REPORT = {
  overview: 'A plumbing business site with a clear headline but no way to book online.',
  sales_funnel: { stages: [{ name: 'Awareness', description: 'The title names the service.', improvements: ['Add the town to the title'] }] },
  customer_journey: { touchpoints: [{ stage: 'First visit', description: 'One call to action: Call us.', opportunities: ['Offer online booking'] }] },
  ai_opportunities: { customer_support: ['An AI chat that answers prices'], seo: [], personalization: ['Show the nearest van'] },
}
const FACTS = {
  final_url: 'https://example.com/', http_status: 200, title: 'Plumbing in Leeds', meta_description: null, h1: ['Plumbers'], headings: 3,
  calls_to_action: ['Call us', 'Get a quote'], forms: 1, form_fields: 4, phone: true, email: false, structured_data: [], open_graph: false,
  viewport: true, language: 'en', images: 5, images_without_alt: 2, scripts: 3, script_kb: 120, booking_widgets: [], chat_widgets: ['Intercom'],
  analytics: ['Google Analytics'], https: true,
}

function analysis(status: string, variant: string, speed: object | null = speedTest('done', 42), extra: object = {}) {
  const done = status === 'done'
  const score = (speed as { result?: { score: number } | null } | null)?.result?.score ?? null
  return {
    id: ID, status, variant, domain: 'example.com', email: 'ann@example.com', notice: NOTICE('ann@example.com'), created_at: '2026-11-24T20:00:00Z',
    report: done ? REPORT : null,
    scores: done ? {
      speed: score, strategy: 60, funnel: 25, ai_readiness: 20, security: 80,
      visitors_lost_percent: score === null ? null : Math.round((100 - score) * 0.53), load_time_seconds: score === null ? null : 3.2,
      revenue_increase_percent: score === null ? null : Math.round((100 - score) * 0.8), recurring_revenue: score === null ? null : score < 70 ? 'High' : 'Medium',
    } : null,
    facts: done ? FACTS : null,
    critical_issues: done ? ['No online booking: visitors can only call.'] : [],
    generated_by: done ? 'rules' : null,
    generated_note: done ? 'Based on the facts found on your page and its speed test.' : null,
    speed_test: speed, error: null,
    ...extra,
  }
}

const ERR = (status: number, message: string, fields?: object): FakeResponse => ({
  status,
  body: { error: { code: status === 400 ? 'validation_error' : 'rate_limited', message, fields } },
})

const SUBSCRIBED = "You're subscribed to the newsletter."
const BOX = /Also send me the newsletter/

interface Server {
  start?: (body: object) => FakeResponse
  polls?: FakeResponse[]
  /** The newsletter's outcome for a start that asked for it (default: subscribed). */
  newsletter?: { subscribed: boolean; message: string }
}

function server({ start, polls = [], newsletter = { subscribed: true, message: SUBSCRIBED } }: Server = {}) {
  let polled = 0
  return mockFetch((method, url, init) => {
    const body = init.body ? JSON.parse(String(init.body)) : undefined
    if (url === '/api/auth/me') return { status: 401, body: { error: { code: 'unauthorized', message: 'Not signed in.' } } }
    if (url === '/api/analyses' && method === 'POST') {
      const answer = start ? start(body) : { status: 202, body: analysis('queued', 'general', null) }
      if (answer.status !== 202) return answer
      return { ...answer, body: { ...(answer.body as object), newsletter: body.newsletter === true ? newsletter : null } }
    }
    if (url === `/api/analyses/${ID}` && method === 'GET') {
      const answer = polls[Math.min(polled, polls.length - 1)]
      polled += 1
      return answer ?? { status: 404, body: { error: { code: 'not_found', message: 'Not found.' } } }
    }
    return { status: 404, body: { error: { code: 'not_found', message: 'Not found.' } } }
  })
}

type Page = (typeof PAGES)[number]

async function open(page: Page) {
  renderApp(page.path)
  await screen.findByRole('heading', { level: 1 })
  await waitFor(() => expect(formButton(page)).toBeEnabled())
}

/** The form's own submit button (the phone bar's twin is the last one). */
const formButton = (page: Page) => screen.getAllByRole('button', { name: page.button })[0]!

async function run(page: Page, url: string, email: string, { newsletter = false } = {}) {
  const urlField = screen.getByLabelText(new RegExp(`^${page.urlLabel}`))
  const emailField = screen.getByLabelText(new RegExp(`^${page.emailLabel}`))
  await userEvent.clear(urlField)
  await userEvent.clear(emailField)
  if (url) await userEvent.type(urlField, url)
  if (email) await userEvent.type(emailField, email)
  const box = screen.getByRole('checkbox', { name: BOX })
  if ((box as HTMLInputElement).checked !== newsletter) await userEvent.click(box)
  await userEvent.click(formButton(page))
}

const calls = (fetchMock: ReturnType<typeof mockFetch>, url: string) => fetchMock.mock.calls.filter(([u]) => u === url).length

describe.each(PAGES)('$path', (page) => {
  it('shows the heading, the fields, the button and the note, and no results', async () => {
    server()
    await open(page)
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(page.title)
    expect(screen.getByLabelText(new RegExp(`^${page.urlLabel}`))).toBeInTheDocument()
    expect(screen.getByLabelText(new RegExp(`^${page.emailLabel}`))).toHaveAttribute('type', 'email')
    expect(screen.getAllByText(page.note).length).toBeGreaterThanOrEqual(1)
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument()
    if (page.variant === 'lead') {
      expect(screen.getByText('Too Slow (3.1s)')).toBeInTheDocument()
      expect(screen.getByText('Strategy')).toBeInTheDocument()
      expect(screen.getByText('AI Readiness')).toBeInTheDocument()
    }
  })

  it('sends what was typed or autofilled before React hydrated the prerendered form', async () => {
    const fetchMock = server()
    await open(page)
    ;(screen.getByLabelText(new RegExp(`^${page.urlLabel}`)) as HTMLInputElement).value = 'early-bird.com'
    ;(screen.getByLabelText(new RegExp(`^${page.emailLabel}`)) as HTMLInputElement).value = 'early-bird.com'
    await userEvent.click(formButton(page))
    await waitFor(() =>
      expect(sentBody(fetchMock, '/api/analyses')).toEqual({ url: 'early-bird.com', email: 'early-bird.com', source: page.source, newsletter: false }),
    )
  })

  it('checks the URL, then the e-mail, then the domain, with the page words and without a call', async () => {
    const fetchMock = server()
    await open(page)
    await run(page, '', '')
    expect(await screen.findByRole('alert')).toHaveTextContent(page.urlMsg)
    expect(screen.getByLabelText(new RegExp(`^${page.urlLabel}`))).toHaveFocus()
    await run(page, '', 'ann@example.com')
    expect(screen.getByRole('alert')).toHaveTextContent(page.urlMsg)
    await run(page, 'example.com', '')
    expect(screen.getByRole('alert')).toHaveTextContent(page.emailMsg)
    expect(screen.getByLabelText(new RegExp(`^${page.emailLabel}`))).toHaveAttribute('aria-invalid', 'true')
    for (const typed of ['shop.example.com', 'example.com/page', 'ab.com', 'localhost']) {
      await run(page, typed, 'ann@example.com')
      expect(screen.getByRole('alert')).toHaveTextContent(BAD_DOMAIN)
    }
    expect(calls(fetchMock, '/api/analyses')).toBe(0)
  })

  it('posts, shows the note and the progress, polls, then the report with its scores, sections, facts and call to action', async () => {
    const fetchMock = server({
      start: () => ({ status: 202, body: analysis('queued', page.variant, null) }),
      polls: [
        { status: 200, body: analysis('running', page.variant, speedTest('running', null)) },
        { status: 200, body: analysis('done', page.variant, speedTest('running', null)) },
        { status: 200, body: analysis('done', page.variant, speedTest('done', 42)) },
      ],
    })
    await open(page)
    await run(page, 'https://www.Example.com/', 'ann@example.com')
    expect(await screen.findByText(NOTICE('ann@example.com'))).toBeInTheDocument()
    expect(document.querySelector('.analysis-loading')).toHaveTextContent('Analyzing example.com...')
    expect(screen.getByRole('progressbar')).toBeInTheDocument()
    expect(formButton(page)).toBeDisabled()
    expect(sentBody(fetchMock, '/api/analyses')).toEqual({ url: 'https://www.Example.com/', email: 'ann@example.com', source: page.source, newsletter: false })
    expect(screen.queryByText(/subscribed/i)).not.toBeInTheDocument()

    const results = await screen.findByRole('region', { name: 'Analysis results for example.com' }, { timeout: 5000 })
    expect(within(results).getByText('Still measuring…')).toBeInTheDocument()
    expect(screen.getByRole('progressbar')).toHaveAttribute('value', '100')
    // The focus moves in a passive effect, a moment after the region appears (longer on a busy machine).
    await waitFor(() => expect(results).toHaveFocus())
    await within(results).findByText('Fix Now', {}, { timeout: 5000 })
    expect(calls(fetchMock, `/api/analyses/${ID}`)).toBe(3)
    expect(within(results).getByRole('link', { name: 'Fix Now' })).toHaveAttribute('href', '/start')

    const tiles = results.querySelector('.score-tiles')!
    expect(within(tiles as HTMLElement).getByText('Speed')).toBeInTheDocument()
    for (const name of page.names) expect(within(tiles as HTMLElement).getByText(name)).toBeInTheDocument()
    // 42 is 'Fair' on every page; 25 and 20 are 'Needs Work' ('Critical' on the technical page).
    expect(results.querySelector('.score-tile--fair .score-tile__value')).toHaveTextContent('42')
    const low = within(tiles as HTMLElement).getAllByText(page.variant === 'technical' ? 'Critical' : 'Needs Work')
    expect(low.length).toBeGreaterThanOrEqual(1)
    for (const title of page.sections) expect(within(results).getByRole('heading', { name: title })).toBeInTheDocument()
    for (const column of page.columns) expect(within(results).getByRole('heading', { name: column })).toBeInTheDocument()
    expect(within(results).getByText(REPORT.overview)).toBeInTheDocument()
    expect(within(results).getByText('Add the town to the title')).toBeInTheDocument()
    expect(within(results).getByText('Based on the facts found on your page and its speed test.')).toBeInTheDocument()

    const facts = within(results).getByRole('region', { name: 'What we found on your page' })
    expect(within(facts).getByText('Plumbing in Leeds')).toBeInTheDocument()
    expect(within(facts).getByText('Call us, Get a quote')).toBeInTheDocument()
    expect(within(facts).getByText('Intercom')).toBeInTheDocument()
    expect(within(facts).getByText('2 of 5')).toBeInTheDocument()

    if (page.critical) {
      const box = within(results).getByRole('region', { name: page.critical })
      expect(within(box).getByText('No online booking: visitors can only call.')).toBeInTheDocument()
      const figure = (name: string) => within(box).getByText(name).closest('.critical-figure')
      if (page.variant === 'lead') {
        expect(figure('Visitors lost before the page loads')).toHaveTextContent('31%')
        expect(figure('Load time (industry standard: under 2 s)')).toHaveTextContent('3.2 s')
      } else {
        expect(figure('Until content shows (recommended response: under 0.2 s)')).toHaveTextContent('3.2 s')
        expect(figure('Total blocking time (critical at 300 ms)')).toHaveTextContent('640 ms')
      }
    } else {
      expect(within(results).queryByText(/Critical .* Found/)).not.toBeInTheDocument()
    }
    if (page.variant === 'agency') {
      expect(within(results).getByText('+46%')).toBeInTheDocument()
      expect(within(results).getByText('High')).toBeInTheDocument()
    }
    expect(within(results).getByRole('link', { name: page.cta })).toHaveAttribute('href', '/start')
    if (page.variant === 'general') expect(within(results).getByText("We'll help you implement all AI improvements within 24 hours")).toBeInTheDocument()

    if (page.bar) {
      const bar = screen.getByRole('region', { name: 'Quick action' })
      expect(within(bar).getByText(page.bar)).toBeInTheDocument()
      expect(within(bar).getByRole('link', { name: 'Fix My Website Now' })).toHaveAttribute('href', '/start')
    } else {
      expect(screen.queryByRole('region', { name: 'Quick action' })).not.toBeInTheDocument()
    }
  })

  it('offers the newsletter in an unticked box and says subscribed only when the server did', async () => {
    const fetchMock = server({ start: () => ({ status: 202, body: analysis('queued', page.variant, null) }), polls: [{ status: 200, body: analysis('running', page.variant, null) }] })
    await open(page)
    expect(screen.getByRole('checkbox', { name: BOX })).not.toBeChecked()
    expect(screen.getByRole('link', { name: 'privacy policy' })).toHaveAttribute('href', '/privacy')
    await run(page, 'example.com', 'ann@example.com', { newsletter: true })
    expect(await screen.findByText(SUBSCRIBED)).toBeInTheDocument()
    expect(sentBody(fetchMock, '/api/analyses')).toMatchObject({ newsletter: true })
  })

  it("a failed analysis shows its error alone: no note, no 'subscribed' beside it", async () => {
    server({
      start: () => ({ status: 202, body: analysis('queued', page.variant, null) }),
      polls: [{ status: 200, body: { ...analysis('failed', page.variant, null), error: 'The page could not be read.' } }],
    })
    await open(page)
    await run(page, 'example.com', 'ann@example.com', { newsletter: true })
    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent('The page could not be read.')
    expect(screen.queryByText(/subscribed/i)).not.toBeInTheDocument()
    expect(screen.queryByText(NOTICE('ann@example.com'))).not.toBeInTheDocument()
  })

  it('shows the speed test error in the speed card, with the report', async () => {
    server({ start: () => ({ status: 202, body: analysis('done', page.variant, speedTest('failed', null, UNREACHABLE)) }) })
    await open(page)
    await run(page, 'example.com', 'ann@example.com')
    const results = await screen.findByRole('region', { name: 'Analysis results for example.com' })
    expect(within(results).getByText(UNREACHABLE)).toBeInTheDocument()
    expect(within(results).queryByRole('link', { name: 'Fix Now' })).not.toBeInTheDocument()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it('a failed analysis shows its message in the red box; the next submit clears it and the note', async () => {
    server({ polls: [{ status: 200, body: analysis('failed', page.variant, null, { error: UNREACHABLE }) }] })
    await open(page)
    await run(page, 'example.com', 'ann@example.com')
    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(UNREACHABLE)
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument()
    await run(page, '', 'ann@example.com')
    expect(screen.getByRole('alert')).toHaveTextContent(page.urlMsg)
    expect(screen.queryByText(UNREACHABLE)).not.toBeInTheDocument()
    expect(screen.queryByText(NOTICE('ann@example.com'))).not.toBeInTheDocument()
  })
})

describe('the pre-scan teaser (/business-analysis)', () => {
  const page = PAGES[1]
  const teaser = () => screen.queryByText('Enter your website to unlock your full report.')

  it('stays while the analysis runs and goes once the finished report is shown', async () => {
    server({
      start: () => ({ status: 202, body: analysis('queued', page.variant, null) }),
      polls: [
        { status: 200, body: analysis('running', page.variant, speedTest('running', null)) },
        { status: 200, body: analysis('done', page.variant, speedTest('done', 42)) },
      ],
    })
    await open(page)
    expect(teaser()).toBeInTheDocument()
    await run(page, 'example.com', 'ann@example.com')
    await screen.findByText(NOTICE('ann@example.com'))
    expect(teaser()).toBeInTheDocument()
    await screen.findByRole('region', { name: 'Analysis results for example.com' }, { timeout: 5000 })
    expect(teaser()).not.toBeInTheDocument()
    expect(document.querySelector('.pre-scan')).toBeNull()
    expect(screen.queryByText('Too Slow (3.1s)')).not.toBeInTheDocument()
  })

  it('stays when the analysis failed: there is no report to show instead', async () => {
    server({ polls: [{ status: 200, body: analysis('failed', page.variant, null, { error: UNREACHABLE }) }] })
    await open(page)
    await run(page, 'example.com', 'ann@example.com')
    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(UNREACHABLE)
    expect(teaser()).toBeInTheDocument()
  })
})

describe('server answers', () => {
  const page = PAGES[0]
  it.each([
    ['a field refusal', ERR(400, 'Please enter a valid email address', { email: 'Please enter a valid email address' }), 'Please enter a valid email address'],
    ['the rate limit', ERR(429, 'Too many requests. Please try again later.'), 'Too many requests. Please try again later.'],
    ['an unreadable answer', { status: 500, body: 'oops' }, 'Failed to analyze the website. Please try again.'],
  ])('shows %s in the red box', async (_, answer, message) => {
    server({ start: () => answer })
    await open(page)
    await run(page, 'example.com', 'ann@example.com')
    expect(await screen.findByRole('alert')).toHaveTextContent(message)
  })

  it('a fast site gets no Fix Now and no Fix My Website Now bar', async () => {
    const lead = PAGES[1]
    server({ start: () => ({ status: 202, body: analysis('done', 'lead', speedTest('done', 95)) }) })
    await open(lead)
    await run(lead, 'example.com', 'ann@example.com')
    const results = await screen.findByRole('region', { name: 'Analysis results for example.com' })
    expect(results.querySelector('.score-tile--good .score-tile__value')).toHaveTextContent('95')
    expect(within(results).queryByRole('link', { name: 'Fix Now' })).not.toBeInTheDocument()
    expect(within(screen.getByRole('region', { name: 'Quick action' })).queryByRole('link', { name: 'Fix My Website Now' })).toBeNull()
  })
})

describe('the phone bar', () => {
  it.each(PAGES.filter((p) => p.bar !== null))('$path: its submit is disabled until both fields are filled', async (page) => {
    server()
    await open(page)
    const bar = screen.getByRole('region', { name: 'Quick action' })
    const submit = within(bar).getByRole('button', { name: page.button })
    expect(submit).toBeDisabled()
    expect(submit).toHaveAttribute('type', 'submit')
    await userEvent.type(screen.getByLabelText(new RegExp(`^${page.urlLabel}`)), 'example.com')
    expect(submit).toBeDisabled()
    await userEvent.type(screen.getByLabelText(new RegExp(`^${page.emailLabel}`)), 'ann@example.com')
    expect(submit).toBeEnabled()
  })
})

describe('scrolling (spec §2)', () => {
  const scrolled = () =>
    (Element.prototype.scrollIntoView as unknown as { mock: { contexts: Element[] } }).mock.contexts.map((el) => el.id)

  it('scrolls to the loading block, then to the results', async () => {
    const page = PAGES[0]
    server({ polls: [{ status: 200, body: analysis('done', 'general', speedTest('done', 95)) }] })
    await open(page)
    ;(Element.prototype.scrollIntoView as unknown as { mockClear: () => void }).mockClear()
    await run(page, 'example.com', 'ann@example.com')
    await screen.findByRole('region', { name: 'Analysis results for example.com' }, { timeout: 5000 })
    // The results scroll into view from an effect, which a loaded machine may run a moment
    // after the region is in the DOM.
    await waitFor(() => expect(scrolled()).toContain('analysis-results'))
    const ids = scrolled()
    expect(ids).toContain('analysis-loading')
    expect(ids.indexOf('analysis-loading')).toBeLessThan(ids.lastIndexOf('analysis-results'))
  })

  it.each(PAGES.map((page) => ({ page, path: page.path, toForm: page.variant !== 'general' })))(
    '$path scrolls to the form on a failure: $toForm',
    async ({ page, toForm }) => {
    server({ start: () => ERR(429, 'Too many requests. Please try again later.') })
    await open(page)
    ;(Element.prototype.scrollIntoView as unknown as { mockClear: () => void }).mockClear()
    await run(page, 'example.com', 'ann@example.com')
    await screen.findByRole('alert')
    // The scroll happens in an effect after the alert renders: wait for it, then check it
    // again once the effects have settled (the general page must not scroll at all).
    if (toForm) await waitFor(() => expect(scrolled()).toContain('analysis-form'))
    else await new Promise((resolve) => setTimeout(resolve, 100))
    expect(scrolled().includes('analysis-form')).toBe(toForm)
    },
  )
})
