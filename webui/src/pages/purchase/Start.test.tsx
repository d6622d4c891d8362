import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it } from 'vitest'
import { resetCatalogueCache } from '../../features/catalogue'
import { testCatalogue } from '@test/catalogue'
import { mockFetch, mockSignedIn, renderApp, sentBody, stubLocationAssign, testUser, type FakeResponse } from '@test/utils'

const CHECKOUT = '/api/billing/checkout'

/** A visitor (no hint cookie: no /api/auth/me call); the catalogue and `checkout` answers. */
function mockVisitorShop(checkout?: () => FakeResponse) {
  return mockFetch((method, url) => {
    if (url === '/api/catalogue') return { status: 200, body: testCatalogue }
    if (method === 'POST' && url === CHECKOUT && checkout) return checkout()
    return { status: 404, body: { error: { code: 'not_found', message: 'Not found.' } } }
  })
}

const heading = (name: string | RegExp) => screen.findByRole('heading', { level: 1, name })
const radio = (name: RegExp) => screen.getByRole('radio', { name })
const ORDER = 'Order with obligation to pay'
const submit = () => userEvent.click(screen.getByRole('button', { name: ORDER }))
/** The package radios (the buyer type is a radio group too). */
const packageRadios = () => within(screen.getByRole('radiogroup', { name: 'Choose your package' })).getAllByRole('radio')

async function fillAccount(values: { name?: string; email?: string; password?: string }) {
  if (values.name) await userEvent.type(screen.getByLabelText(/^Full Name/), values.name)
  if (values.email) await userEvent.type(screen.getByLabelText(/^Email Address/), values.email)
  if (values.password) await userEvent.type(screen.getByLabelText(/^Password/), values.password)
}

beforeEach(() => {
  resetCatalogueCache()
  window.localStorage.clear()
  window.sessionStorage.clear()
})

describe('/start', () => {
  it('shows the website family by default with professional preselected, prices and badges', async () => {
    mockVisitorShop()
    renderApp('/start')
    await heading('Get Your Website Live in 24 Hours')
    expect(screen.getByText(/we design, build and host a website/)).toBeInTheDocument()
    const group = screen.getByRole('radiogroup', { name: 'Choose your package' })
    const radios = within(group).getAllByRole('radio')
    expect(radios).toHaveLength(3)
    expect(radio(/^Professional/)).toBeChecked()
    expect(radio(/^Starter/)).not.toBeChecked()
    expect(radio(/^Professional €29\/month incl\. 19\s%\sVAT$/)).toBeInTheDocument()
    const pro = radio(/^Professional/).closest('label') as HTMLElement
    expect(within(pro).getByText('Most Popular')).toBeInTheDocument()
    expect(within(pro).getByText('Save 70%')).toBeInTheDocument()
    expect(pro.querySelector('s')).toHaveTextContent('€97')
    expect(screen.getByRole('button', { name: ORDER })).toBeInTheDocument()
    expect(screen.getByText('Secure checkout with Stripe. Your card details never touch our servers.')).toBeInTheDocument()
    const main = within(screen.getByRole('main'))
    expect(main.getByRole('link', { name: 'terms' })).toHaveAttribute('href', '/terms')
    expect(main.getByRole('link', { name: 'privacy policy' })).toHaveAttribute('href', '/privacy')
    expect(main.getAllByRole('link', { name: 'withdrawal information' })[0]).toHaveAttribute('href', '/withdrawal')
    // Information beside the button, not a declaration to agree to.
    expect(main.queryByText(/agree/i)).not.toBeInTheDocument()
    expect(screen.getByText('Cancel anytime')).toBeInTheDocument()
  })

  it.each([
    ['ai-booking', /^AI Booking Pro/, 'Start My AI Booking System'],
    ['ai-scale', /^Content Engine Growth/, 'Start My Content Engine'],
    ['ai-onboarding', /^Onboarding Pro/, 'Automate My Onboarding'],
    ['leadgen', /^Landing Page & Funnel Rebuild/, 'Rebuild My Landing Page'],
    ['rebuild', /^Pro Rebuild/, 'Start My Rebuild'],
    ['ai', /^Pro AI/, 'Start My AI Setup'],
    ['ugc', /^Conversion Bundle/, 'Order My Videos'],
  ])('type=%s preselects the family default', async (type, plan, cta) => {
    mockVisitorShop()
    renderApp(`/start?type=${type}`)
    await screen.findByRole('radiogroup', { name: 'Choose your package' })
    expect(radio(plan)).toBeChecked()
    expect(screen.getByRole('button', { name: ORDER })).toBeInTheDocument()
    void cta // the family's call to action is no longer the order button's text
  })

  it('preselects an explicit plan and shows one-time prices with their badges', async () => {
    mockVisitorShop()
    renderApp('/start?type=ugc&plan=custom-campaign')
    await heading('Order Your UGC Videos')
    expect(radio(/^Custom Campaign €499 one-time incl\. 19\s%\sVAT$/)).toBeChecked()
    // The plan named in the link narrows the list; the others are one click away.
    expect(packageRadios()).toHaveLength(1)
    const custom = radio(/^Custom Campaign/).closest('label') as HTMLElement
    expect(within(custom).getByText('Premium')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Show all 4 packages' }))
    expect(packageRadios()).toHaveLength(4)
    expect(radio(/^Custom Campaign/)).toBeChecked()
  })

  it('words the leadgen badge "Perfect for Clinics" and shows the launch offer badge for rebuild', async () => {
    mockVisitorShop()
    const { unmount } = renderApp('/start?type=leadgen')
    await heading('Rebuild Your Clinic Landing Page and Funnel')
    expect(screen.getByText('Perfect for Clinics')).toBeInTheDocument()
    expect(screen.queryByText('Most Popular')).not.toBeInTheDocument()
    expect(screen.getByText('No contracts')).toBeInTheDocument()
    unmount()
    renderApp('/start?type=rebuild')
    await heading('Rebuild Your Website or Funnel')
    const offer = radio(/^Sales Funnel Rebuild/).closest('label') as HTMLElement
    expect(within(offer).getByText('Launch Offer')).toBeInTheDocument()
    expect(within(offer).getByText('Save 67%')).toBeInTheDocument()
    // The launch badge is not dressed as the saving: a distinct colour, not the green pill's.
    expect(within(offer).getByText('Launch Offer')).toHaveClass('badge--yellow')
    expect(within(offer).getByText('Launch Offer')).not.toHaveClass('badge--green')
  })

  it.each([
    ['website', true],
    ['leadgen', true],
    ['rebuild', true],
    ['ai', false],
    ['ugc', false],
    ['ai-booking', false],
  ])('type=%s domain field shown: %s', async (type, shown) => {
    mockVisitorShop()
    renderApp(`/start?type=${type}`)
    await screen.findByRole('radiogroup', { name: 'Choose your package' })
    const domain = screen.queryByLabelText(/^Domain Name/)
    if (shown) {
      expect(domain).toHaveAccessibleDescription('Enter without http:// or https://')
    } else {
      expect(domain).not.toBeInTheDocument()
    }
  })

  it('shows the account fields to visitors, with a password show/hide toggle', async () => {
    mockVisitorShop()
    renderApp('/start')
    await screen.findByRole('radiogroup', { name: 'Choose your package' })
    expect(screen.getByLabelText(/^Full Name/)).toBeInTheDocument()
    expect(screen.getByLabelText(/^Email Address/)).toHaveAttribute('type', 'email')
    const password = screen.getByLabelText(/^Password/)
    expect(password).toHaveAttribute('type', 'password')
    expect(password).toHaveAccessibleDescription('Used to access your dashboard. We never share it.')
    const toggle = screen.getByRole('button', { name: 'Show password' })
    expect(toggle).toHaveAttribute('aria-pressed', 'false')
    await userEvent.click(toggle)
    expect(toggle).toHaveAttribute('aria-pressed', 'true')
    expect(password).toHaveAttribute('type', 'text')
  })

  it('hides the account fields from a signed-in user and sends only the plan', async () => {
    const assign = stubLocationAssign()
    const fetchMock = mockSignedIn(testUser, (method, url) => {
      if (url === '/api/catalogue') return { status: 200, body: testCatalogue }
      if (method === 'POST' && url === CHECKOUT) return { status: 200, body: { url: 'https://pay.example/session' } }
      return undefined
    })
    renderApp('/start?type=ai&plan=full-stack-ai')
    await screen.findByRole('radiogroup', { name: 'Choose your package' })
    // Hidden, in the space they took before the user was known (the page does not move).
    expect(await screen.findByText(/Signed in as/)).toBeVisible()
    expect(screen.getByLabelText(/^Full Name/)).not.toBeVisible()
    expect(screen.getByLabelText(/^Password/)).not.toBeVisible()
    expect(screen.getByText(/Signed in as/)).toHaveTextContent('Signed in as ada@example.eu')
    await submit()
    await waitFor(() =>
      expect(sentBody(fetchMock, CHECKOUT)).toEqual({ plan: 'full-stack-ai', page: 'start', buyer_type: 'consumer', early_start_consent: false, country: 'DE' }),
    )
    expect(assign).toHaveBeenCalledWith('https://pay.example/session')
  })

  it('checks every account field with its own message without calling the server', async () => {
    const fetchMock = mockVisitorShop()
    renderApp('/start?type=ugc&plan=starter-clip')
    await screen.findByRole('radiogroup', { name: 'Choose your package' })
    await submit()
    expect(await screen.findByRole('alert')).toHaveTextContent('Please correct the highlighted fields')
    expect(screen.getByLabelText(/^Full Name/)).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByLabelText(/^Full Name/)).toHaveAccessibleDescription('Please enter your full name')

    await fillAccount({ name: 'Ada Lovelace', email: 'ada@example.eu' })
    await submit()
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Please enter a password'))
    expect(screen.getByLabelText(/^Full Name/)).not.toHaveAttribute('aria-invalid')
    expect(screen.getByLabelText(/^Password/)).toHaveAttribute('aria-invalid', 'true')
    expect(fetchMock.mock.calls.filter(([url]) => url === CHECKOUT)).toHaveLength(0)
  })

  it('checks a field when the visitor leaves it, and clears the mark once it is valid', async () => {
    mockVisitorShop()
    renderApp('/start')
    await screen.findByRole('radiogroup', { name: 'Choose your package' })
    const email = screen.getByLabelText(/^Email Address/)
    await userEvent.type(email, 'max@mustermann')
    expect(email).not.toHaveAttribute('aria-invalid') // not while typing
    await userEvent.tab()
    expect(email).toHaveAttribute('aria-invalid', 'true')
    expect(email).toHaveAccessibleDescription('Please enter a valid email address')
    await userEvent.type(email, '.de')
    expect(email).not.toHaveAttribute('aria-invalid')
    const password = screen.getByLabelText(/^Password/)
    await userEvent.type(password, '123')
    await userEvent.tab()
    expect(password).toHaveAccessibleDescription(/Password must be at least 6 characters/)
    const domain = screen.getByLabelText(/^Domain Name/)
    await userEvent.type(domain, 'not a domain')
    await userEvent.tab()
    expect(domain).toHaveAccessibleDescription(/Please enter a valid domain/)
  })

  it('shows the server\'s per-field messages at the fields', async () => {
    mockVisitorShop(() => ({
      status: 400,
      body: {
        error: {
          code: 'validation_error',
          message: 'Please enter a valid email address',
          fields: { email: 'Please enter a valid email address' },
        },
      },
    }))
    renderApp('/start?type=ai')
    await screen.findByRole('radiogroup', { name: 'Choose your package' })
    await fillAccount({ name: 'Ada', email: 'ada@localhost.x', password: 'secret12' })
    await submit()
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter a valid email address')
    expect(screen.getByLabelText(/^Email Address/)).toHaveAccessibleDescription(/Please enter a valid email address/)
  })

  it('asks a consumer for the early-start consent with an unticked box, and sends it with its version', async () => {
    stubLocationAssign()
    const fetchMock = mockVisitorShop(() => ({ status: 200, body: { url: 'https://pay.example/c' } }))
    renderApp('/start?type=ai')
    await screen.findByRole('radiogroup', { name: 'Choose your package' })
    expect(screen.getByRole('radio', { name: 'as a consumer' })).toBeChecked()
    const consent = screen.getByRole('checkbox', { name: /start the work before the 14-day withdrawal period ends/ })
    expect(consent).not.toBeChecked()
    await userEvent.click(consent)
    await fillAccount({ name: 'Ada', email: 'ada@example.eu', password: 'secret12' })
    await submit()
    expect(sentBody(fetchMock, CHECKOUT)).toMatchObject({
      buyer_type: 'consumer',
      early_start_consent: true,
      consent_version: 'early-start-2026-11-26',
    })
  })

  it('lets a business order without the consumer notice, and remembers the choice', async () => {
    stubLocationAssign()
    const fetchMock = mockVisitorShop(() => ({ status: 200, body: { url: 'https://pay.example/c' } }))
    renderApp('/start?type=ai')
    await screen.findByRole('radiogroup', { name: 'Choose your package' })
    await userEvent.click(screen.getByRole('radio', { name: 'as a business' }))
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument()
    await fillAccount({ name: 'Ada', email: 'ada@example.eu', password: 'secret12' })
    await submit()
    expect(sentBody(fetchMock, CHECKOUT)).toMatchObject({ buyer_type: 'business', early_start_consent: false })
    expect(window.localStorage.getItem('agency.buyer-type')).toBe('business')
  })

  it('shows the order summary of the package picked, in the form and beside it', async () => {
    mockVisitorShop()
    renderApp('/start?type=website&plan=premium')
    await screen.findByRole('radiogroup', { name: 'Choose your package' })
    const summary = screen.getByRole('region', { name: 'Your order' })
    expect(summary).toHaveTextContent('Premium')
    expect(summary).toHaveTextContent('€499 per month')
    expect(screen.queryByText(/Packages from/)).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: /Show all/ }))
    await userEvent.click(radio(/^Starter/))
    expect(summary).toHaveTextContent('Starter')
    expect(summary).toHaveTextContent('€19 per month')
    expect(screen.getByRole('complementary')).toHaveTextContent('Starter: €19 per month')
  })

  it('asks for a package before anything else when none is selected', async () => {
    // A family whose default plan is not offered: nothing is preselected.
    const catalogue = {
      ...testCatalogue,
      families: testCatalogue.families.map((f) => (f.key === 'ugc' ? { ...f, default_plan: 'gone' } : f)),
    }
    const fetchMock = mockFetch((_m, url) => (url === '/api/catalogue' ? { status: 200, body: catalogue } : { status: 404 }))
    renderApp('/start?type=ugc')
    await screen.findByRole('radiogroup', { name: 'Choose your package' })
    expect(packageRadios().filter((r) => (r as HTMLInputElement).checked)).toHaveLength(0)
    await submit()
    expect(await screen.findByRole('alert')).toHaveTextContent('Please select a package')
    expect(fetchMock.mock.calls.filter(([url]) => url === CHECKOUT)).toHaveLength(0)
  })

  it('sends the visitor details and domain, then goes to the payment page', async () => {
    const assign = stubLocationAssign()
    const fetchMock = mockVisitorShop(() => ({ status: 200, body: { url: 'https://checkout.stripe.test/c/pay_1' } }))
    renderApp('/start?type=website')
    await screen.findByRole('radiogroup', { name: 'Choose your package' })
    await userEvent.click(radio(/^Premium/))
    await fillAccount({ name: ' Ada Lovelace ', email: 'ada@example.eu', password: 'secret12' })
    await userEvent.type(screen.getByLabelText(/^Domain Name/), 'adas-bakery.eu')
    await submit()
    expect(sentBody(fetchMock, CHECKOUT)).toEqual({
      plan: 'premium',
      page: 'start',
      buyer_type: 'consumer',
      early_start_consent: false,
      country: 'DE',
      domain: 'adas-bakery.eu',
      full_name: 'Ada Lovelace',
      email: 'ada@example.eu',
      password: 'secret12',
    })
    expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/c/pay_1')
  })

  it('sends what was typed and picked before React hydrated the prerendered form', async () => {
    // A fast visitor or the browser's autofill fills the server's HTML before the scripts run:
    // the inputs change, React's state does not (no events reach it).
    const assign = stubLocationAssign()
    const fetchMock = mockVisitorShop(() => ({ status: 200, body: { url: 'https://checkout.stripe.test/c/pay_2' } }))
    renderApp('/start?type=website')
    await screen.findByRole('radiogroup', { name: 'Choose your package' })
    const typeSilently = (label: RegExp, value: string) => {
      ;(screen.getByLabelText(label) as HTMLInputElement).value = value
    }
    typeSilently(/^Full Name/, 'Margaret Hamilton')
    typeSilently(/^Email Address/, 'margaret@example.com')
    typeSilently(/^Password/, 'apollo 11 code')
    typeSilently(/^Domain Name/, 'hamilton-code.com')
    ;(radio(/^Premium/) as HTMLInputElement).checked = true
    await submit()
    expect(screen.queryByText('Please fill in all required fields')).not.toBeInTheDocument()
    expect(sentBody(fetchMock, CHECKOUT)).toEqual({
      plan: 'premium',
      page: 'start',
      buyer_type: 'consumer',
      early_start_consent: false,
      country: 'DE',
      domain: 'hamilton-code.com',
      full_name: 'Margaret Hamilton',
      email: 'margaret@example.com',
      password: 'apollo 11 code',
    })
    expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/c/pay_2')
  })

  it('offers a Log in link back to the same plan when the e-mail is registered', async () => {
    mockVisitorShop(() => ({
      status: 409,
      body: { error: { code: 'email_registered', message: 'This email is already registered.' } },
    }))
    renderApp('/start?type=website&plan=premium')
    await screen.findByRole('radiogroup', { name: 'Choose your package' })
    await fillAccount({ name: 'Ada Lovelace', email: 'ada@example.eu', password: 'wrong-pass' })
    await submit()
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('This email is already registered.')
    expect(within(alert).getByRole('link', { name: 'Log in' })).toHaveAttribute(
      'href',
      `/login?next=${encodeURIComponent('/start?type=website&plan=premium')}`,
    )
    expect(screen.getByRole('button', { name: ORDER })).toBeEnabled()
  })

  it('shows server messages such as payments not configured', async () => {
    mockVisitorShop(() => ({
      status: 503,
      body: { error: { code: 'payments_not_configured', message: 'Payments are not set up yet. Please contact us to order.' } },
    }))
    renderApp('/start?type=ai')
    await screen.findByRole('radiogroup', { name: 'Choose your package' })
    await fillAccount({ name: 'Ada', email: 'ada@example.eu', password: 'secret12' })
    await submit()
    expect(await screen.findByRole('alert')).toHaveTextContent('Payments are not set up yet. Please contact us to order.')
  })

  it('falls back to the generic message when the server says nothing useful', async () => {
    mockVisitorShop(() => ({ status: 500, body: 'oops' }))
    renderApp('/start')
    await screen.findByRole('radiogroup', { name: 'Choose your package' })
    await fillAccount({ name: 'Ada', email: 'ada@example.eu', password: 'secret12' })
    await submit()
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong. Please try again.')
  })

  it('notes a cancelled checkout', async () => {
    mockVisitorShop()
    renderApp('/start?canceled=true&type=rebuild')
    await heading('Rebuild Your Website or Funnel')
    expect(screen.getByText(/checkout was cancelled and nothing was charged/)).toBeInTheDocument()
  })

  it('shows a spinner while loading and Try again when the catalogue fails', async () => {
    let fail = true
    mockFetch((_m, url) =>
      url === '/api/catalogue'
        ? fail
          ? { status: 500, body: { error: { code: 'boom', message: 'Catalogue unavailable.' } } }
          : { status: 200, body: testCatalogue }
        : { status: 404 },
    )
    renderApp('/start')
    expect(await screen.findByRole('status')).toHaveTextContent(/Loading/)
    expect(await screen.findByRole('alert')).toHaveTextContent('Catalogue unavailable.')
    fail = false
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }))
    await heading('Get Your Website Live in 24 Hours')
  })
})

describe('/ai-start', () => {
  it('shows only the website plans under its own title and sends page "ai-start"', async () => {
    const assign = stubLocationAssign()
    const fetchMock = mockVisitorShop(() => ({ status: 200, body: { url: 'https://pay.example/x' } }))
    renderApp('/ai-start?plan=starter')
    await heading('Start Your Website, Live in 24 Hours')
    const radios = packageRadios()
    expect(radios.map((r) => r.getAttribute('value'))).toEqual(['starter', 'professional', 'premium'])
    expect(radio(/^Starter €19\/month incl\. 19\s%\sVAT$/)).toBeChecked()
    expect(radio(/^Premium €499\/month incl\. 19\s%\sVAT$/)).toBeInTheDocument()
    await fillAccount({ name: 'Ada Lovelace', email: 'ada@example.eu', password: 'secret12' })
    await submit()
    expect(sentBody(fetchMock, CHECKOUT)).toMatchObject({ plan: 'starter', page: 'ai-start' })
    expect(assign).toHaveBeenCalledWith('https://pay.example/x')
  })

  it('defaults to professional, ignores other families and notes a cancel', async () => {
    mockVisitorShop()
    renderApp('/ai-start?plan=pro-ai&canceled=true')
    await heading('Start Your Website, Live in 24 Hours')
    expect(radio(/^Professional/)).toBeChecked()
    expect(screen.queryByRole('radio', { name: /Pro AI/ })).not.toBeInTheDocument()
    expect(screen.getByText(/nothing was charged/)).toBeInTheDocument()
  })
})
