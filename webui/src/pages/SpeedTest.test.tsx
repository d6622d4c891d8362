import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { mockFetch, renderApp, sentBody, type FakeResponse } from '@test/utils'

const PAGES = [
  { path: '/speed-test', source: 'speed-test', badge: 'Free, in about 25 seconds' },
  { path: '/clinic-speed-test', source: 'clinic-speed-test', badge: 'For Medical & Healthcare Websites' },
  { path: '/coach-speed-test', source: 'coach-speed-test', badge: 'For Coaches & Personal Trainers' },
] as const

const ID = 'a'.repeat(32)
const NOTICE = (email: string) => `Your speed report will arrive at ${email} in about 60 seconds.`
const SUBSCRIBED = "You're subscribed to the newsletter."
const BOX = /Also send me the newsletter/
const UNREACHABLE = 'Unable to access the website. Please check if the domain is correct and the website is accessible.'

function result(score: number, extra: object = {}) {
  return {
    score,
    rating: score >= 90 ? 'Excellent' : score >= 70 ? 'Needs Improvement' : 'Poor',
    speed_index_ms: 3180,
    total_blocking_time_ms: 1234,
    largest_contentful_paint_ms: 4200,
    cumulative_layout_shift: 0.1,
    first_contentful_paint_ms: 1500,
    field_data: [],
    opportunities: [],
    provider: 'psi',
    ...extra,
  }
}

function speedTest(status: string, domain: string, res: object | null = null, error: string | null = null) {
  return { id: ID, status, domain, strategy: 'mobile', created_at: '2026-11-24T20:00:00Z', result: res, error }
}

interface Server {
  /** The newsletter's outcome for a start that asked for it (default: subscribed). */
  newsletter?: { subscribed: boolean; message: string }
  start?: (body: { url: string }) => FakeResponse
  /** The websites tested this month (default 1,423). */
  tested?: number
  /** Answers to the polls, in order (the last one repeats). */
  polls?: FakeResponse[]
}

const ERR = (status: number, message: string, fields?: object): FakeResponse => ({
  status,
  body: { error: { code: status === 400 ? 'validation_error' : status === 429 ? 'rate_limited' : 'upstream_error', message, fields } },
})

function server({ newsletter = { subscribed: true, message: SUBSCRIBED }, start, polls = [], tested = 1423 }: Server = {}) {
  let polled = 0
  return mockFetch((method, url, init) => {
    const body = init.body ? JSON.parse(String(init.body)) : undefined
    if (url === '/api/auth/me') return { status: 401, body: { error: { code: 'unauthorized', message: 'Not signed in.' } } }
    if (url === '/api/speed-tests/this-month' && method === 'GET') return { status: 200, body: { month: '2026-11', websites: tested } }
    if (url === '/api/speed-tests' && method === 'POST') {
      const answer = start ? start(body) : { status: 202, body: speedTest('queued', 'example.com') }
      if (answer.status !== 202) return answer
      const extra = { notice: NOTICE(body.email), newsletter: body.newsletter === true ? newsletter : null }
      return { ...answer, body: { ...(answer.body as object), ...extra } }
    }
    if (url === `/api/speed-tests/${ID}` && method === 'GET') {
      const answer = polls[Math.min(polled, polls.length - 1)]
      polled += 1
      return answer ?? { status: 404, body: { error: { code: 'not_found', message: 'Not found.' } } }
    }
    return { status: 404, body: { error: { code: 'not_found', message: 'Not found.' } } }
  })
}

async function open(path: string) {
  renderApp(path)
  await screen.findByRole('heading', { level: 1 })
  // The submit button is enabled once the page is hydrated (always, in a client render).
  await waitFor(() => expect(screen.getByRole('button', { name: 'Test My Website Speed' })).toBeEnabled())
}

async function run(url: string, email: string, { newsletter = false } = {}) {
  const urlField = screen.getByLabelText(/^Website URL/)
  const emailField = screen.getByLabelText(/^Your Email/)
  await userEvent.clear(urlField)
  await userEvent.clear(emailField)
  if (url) await userEvent.type(urlField, url)
  if (email) await userEvent.type(emailField, email)
  const box = screen.getByRole('checkbox', { name: BOX })
  if ((box as HTMLInputElement).checked !== newsletter) await userEvent.click(box)
  await userEvent.click(screen.getByRole('button', { name: /Test My Website Speed|Testing…/ }))
}

const calls = (fetchMock: ReturnType<typeof mockFetch>, url: string) => fetchMock.mock.calls.filter(([u]) => u === url).length

describe.each(PAGES)('$path', ({ path, source, badge }) => {
  it('explains itself, links to /start and says how many websites were tested this month', async () => {
    server({ tested: 1423 })
    await open(path)
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1)
    expect(screen.getByText(badge)).toBeInTheDocument()
    expect(await screen.findByText('1,423 websites tested this month.')).toBeInTheDocument()
    expect(screen.getByText('We e-mail you the full report in about 60 seconds.')).toBeInTheDocument()
    const starts = screen.getAllByRole('link').filter((a) => a.getAttribute('href') === '/start')
    expect(starts.length).toBeGreaterThanOrEqual(2)
    expect(screen.queryByText('Too Slow')).not.toBeInTheDocument()
  })

  it('sends what was typed or autofilled before React hydrated the prerendered form', async () => {
    // Filled in the server's HTML before the scripts ran: the inputs changed, React's state did not.
    const fetchMock = server({ polls: [{ status: 200, body: speedTest('running', 'early.example.com') }] })
    await open(path)
    ;(screen.getByLabelText(/^Website URL/) as HTMLInputElement).value = 'early.example.com'
    ;(screen.getByLabelText(/^Your Email/) as HTMLInputElement).value = 'early@example.com'
    await userEvent.click(screen.getByRole('button', { name: 'Test My Website Speed' }))
    expect(screen.queryByText('Please enter a website URL')).not.toBeInTheDocument()
    await waitFor(() =>
      expect(sentBody(fetchMock, '/api/speed-tests')).toEqual({ url: 'early.example.com', email: 'early@example.com', source, strategy: 'mobile', newsletter: false }),
    )
  })

  it('requires the URL first, then the e-mail, without any call', async () => {
    const fetchMock = server()
    await open(path)
    await run('', '')
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter a website URL')
    expect(screen.getByLabelText(/^Website URL/)).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByLabelText(/^Website URL/)).toHaveFocus()
    await run('', 'ann@example.com')
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter a website URL')
    await run('example.com', '')
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter your email address')
    expect(screen.getByLabelText(/^Your Email/)).toHaveAttribute('aria-invalid', 'true')
    expect(calls(fetchMock, '/api/speed-tests')).toBe(0)
  })

  it('with the box ticked: starts the test, confirms the report and the subscription, polls and shows a Poor result with Too Slow', async () => {
    let releaseStart: () => void = () => {}
    const started = new Promise<void>((resolve) => (releaseStart = resolve))
    const fetchMock = server({
      polls: [
        { status: 200, body: speedTest('running', 'shop.example.com') },
        {
          status: 200,
          body: speedTest('done', 'shop.example.com', result(42, {
            field_data: [{ name: 'LCP', percentile: 3900, category: 'SLOW' }],
            opportunities: [{ title: 'Reduce unused JavaScript', savings_ms: 1200 }],
          })),
        },
      ],
    })
    const original = fetchMock.getMockImplementation()!
    fetchMock.mockImplementation(async (input, init) => {
      if (input === '/api/speed-tests') await started
      return original(input, init)
    })
    await open(path)
    await run('https://shop.example.com/', 'ann@example.com', { newsletter: true })
    expect(screen.getByRole('button', { name: 'Testing…' })).toBeDisabled()
    expect(screen.queryByText(SUBSCRIBED)).not.toBeInTheDocument() // not before the server said so
    releaseStart()

    expect(await screen.findByText(NOTICE('ann@example.com'))).toBeInTheDocument()
    expect(screen.getByText(SUBSCRIBED)).toBeInTheDocument()
    const panel = await screen.findByRole('region', { name: 'Speed results for shop.example.com' }, { timeout: 5000 })
    expect(sentBody(fetchMock, '/api/speed-tests')).toEqual({ url: 'https://shop.example.com/', email: 'ann@example.com', source, strategy: 'mobile', newsletter: true })
    expect(calls(fetchMock, `/api/speed-tests/${ID}`)).toBe(2)
    // The panel takes the focus in an effect after it renders: on a busy machine, a moment later.
    await waitFor(() => expect(panel).toHaveFocus())
    expect(within(panel).getByText('PageSpeed score 42 out of 100, rated')).toBeInTheDocument()
    expect(panel.querySelector('.score-dial--poor .score-dial__rating')).toHaveTextContent('Poor')
    expect(within(panel).getByText('3.2 s')).toBeInTheDocument() // speed index
    expect(within(panel).getByText('1,234 ms')).toBeInTheDocument() // total blocking time
    expect(within(panel).getByText('Reduce unused JavaScript')).toBeInTheDocument()
    expect(within(panel).getByText('What real visitors experienced')).toBeInTheDocument()
    expect(within(panel).getByRole('heading', { name: 'Too Slow' })).toBeInTheDocument()
    expect(within(panel).getByRole('link', { name: 'Fix My Website Now' })).toHaveAttribute('href', '/start')
    expect(screen.getByRole('progressbar')).toHaveAttribute('value', '100')
    expect(screen.getByRole('status', { hidden: false }).textContent).toContain('scored 42 out of 100: Poor')
  })

  it.each([
    [90, 'Excellent', 'good', false],
    [89, 'Needs Improvement', 'fair', true],
    [70, 'Needs Improvement', 'fair', true],
    [69, 'Poor', 'poor', true],
  ] as const)('score %i is %s (%s); Too Slow: %s', async (score, label, tone, tooSlow) => {
    server({ start: () => ({ status: 202, body: speedTest('done', 'example.com', result(score)) }) })
    await open(path)
    await run('example.com', 'ann@example.com')
    const panel = await screen.findByRole('region', { name: 'Speed results for example.com' })
    expect(panel.querySelector(`.score-dial--${tone} .score-dial__rating`)).toHaveTextContent(label)
    expect(within(panel).queryByRole('heading', { name: 'Too Slow' }) !== null).toBe(tooSlow)
    expect(within(panel).queryByRole('link', { name: 'Fix My Website Now' }) !== null).toBe(tooSlow)
  })

  it('shows a failed test\'s message alone in the red box, and the next submit clears it', async () => {
    server({ polls: [{ status: 200, body: speedTest('failed', 'down.example', null, UNREACHABLE) }] })
    await open(path)
    await run('down.example', 'ann@example.com', { newsletter: true })
    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(UNREACHABLE)
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument()
    // Nothing 'subscribed' or promised beside the error.
    expect(screen.queryByText(/subscribed/i)).not.toBeInTheDocument()
    expect(screen.queryByText(NOTICE('ann@example.com'))).not.toBeInTheDocument()
    await run('', 'ann@example.com')
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a website URL')
    expect(screen.queryByText(UNREACHABLE)).not.toBeInTheDocument()
  })

  it('a new submit clears the previous result and confirmation', async () => {
    server({ start: () => ({ status: 202, body: speedTest('done', 'example.com', result(55)) }) })
    await open(path)
    await run('example.com', 'ann@example.com')
    await screen.findByRole('region', { name: 'Speed results for example.com' })
    await run('example.com', '')
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter your email address')
    expect(screen.queryByRole('region', { name: /Speed results/ })).not.toBeInTheDocument()
    expect(screen.queryByText(NOTICE('ann@example.com'))).not.toBeInTheDocument()
  })

  it.each([
    ['a bad e-mail', ERR(400, 'Please enter a valid email address', { email: 'Please enter a valid email address' }), 'Please enter a valid email address', 'Your Email'],
    ['the rate limit', ERR(429, 'Too many requests. Please try again later.'), 'Too many requests. Please try again later.', null],
  ])('shows %s in the red box, alone', async (_, answer, message, field) => {
    server({ start: () => answer })
    await open(path)
    await run('example.com', 'ann@example.com', { newsletter: true })
    expect(await screen.findByRole('alert')).toHaveTextContent(message)
    if (field) expect(screen.getByLabelText(new RegExp(`^${field}`))).toHaveAttribute('aria-invalid', 'true')
    expect(screen.queryByText(/subscribed/i)).not.toBeInTheDocument()
  })

  it('without the box: the test runs and nothing is said about a newsletter', async () => {
    const fetchMock = server({ start: () => ({ status: 202, body: speedTest('done', 'example.com', result(95)) }) })
    await open(path)
    const box = screen.getByRole('checkbox', { name: BOX })
    expect(box).not.toBeChecked() // never ticked for the visitor
    expect(screen.getByRole('link', { name: 'privacy policy' })).toHaveAttribute('href', '/privacy')
    await run('example.com', 'ann@example.com')
    await screen.findByRole('region', { name: 'Speed results for example.com' })
    expect(sentBody(fetchMock, '/api/speed-tests')).toMatchObject({ newsletter: false })
    expect(screen.getByText(NOTICE('ann@example.com'))).toBeInTheDocument()
    expect(screen.queryByText(/subscribed/i)).not.toBeInTheDocument()
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('newsletter'))).toBe(false)
  })

  it("a Kit failure is said as such, without 'subscribed', and the test goes on", async () => {
    const failed = { subscribed: false, message: 'Error subscribing to ConvertKit: Invalid API key' }
    server({ newsletter: failed, start: () => ({ status: 202, body: speedTest('done', 'example.com', result(95)) }) })
    await open(path)
    await run('example.com', 'ann@example.com', { newsletter: true })
    await screen.findByRole('region', { name: 'Speed results for example.com' })
    expect(screen.getByText(failed.message)).toBeInTheDocument()
    expect(screen.queryByText(SUBSCRIBED)).not.toBeInTheDocument()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it.each([
    [0, null],
    [9, null],
    [10, '10 websites tested this month.'],
  ])('with %i websites tested the line says %s, in a line that is there from the start', async (tested, text) => {
    server({ tested })
    await open(path)
    const line = document.querySelector('.speedtest-form__tested')
    expect(line).not.toBeNull()
    if (text) expect(await screen.findByText(text)).toBe(line)
    else await waitFor(() => expect(line).toBeEmptyDOMElement())
    expect(screen.queryByText(/1,423/)).not.toBeInTheDocument()
  })

  it('shows the server\'s refusal of the URL in the red box', async () => {
    const refusal = 'This address cannot be tested.'
    server({ start: () => ERR(400, refusal, { url: refusal }) })
    await open(path)
    await run('intranet.example.com', 'ann@example.com')
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal)
    expect(screen.getByLabelText(/^Website URL/)).toHaveAttribute('aria-invalid', 'true')
    expect(screen.queryByText(/subscribed/i)).not.toBeInTheDocument()
  })

  it('says "Failed to test website speed." when the server answers something unreadable', async () => {
    server({ start: () => ({ status: 500, body: 'oops' }) })
    await open(path)
    await run('example.com', 'ann@example.com')
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to test website speed.')
  })
})

describe('the page\'s own domain rule', () => {
  it('the generic page refuses a value that is not a domain; clinic and coach send it to the server', async () => {
    const fetchMock = server()
    await open('/speed-test')
    await run('not a domain', 'ann@example.com')
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter a valid domain (e.g., example.com)')
    expect(calls(fetchMock, '/api/speed-tests')).toBe(0)
  })

  it.each(['/clinic-speed-test', '/coach-speed-test'])('%s only requires both fields', async (path) => {
    const fetchMock = server({ start: () => ({ status: 202, body: speedTest('done', 'mypractice', result(95)) }) })
    await open(path)
    await run('http://mypractice', 'ann@example.com')
    await screen.findByRole('region', { name: 'Speed results for mypractice' })
    expect(sentBody(fetchMock, '/api/speed-tests')).toMatchObject({ url: 'http://mypractice' })
  })
})
