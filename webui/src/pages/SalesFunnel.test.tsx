import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { hrefsOf, mockLanding, renderLanding, startHrefs } from '@test/landing'
import { resetCatalogueCache } from '../features/catalogue'
import { DEV_SITE_CONFIG, resetSiteConfigForTests } from '../lib/site-config'

const CTA = 'Apply For Your Free Funnel Teardown'
const BOOK = '/sales-funnel#book'
const SCHEDULING_URL = 'https://calendar.example.eu/agency/free-consultation'
const THANKS = "Thank you! We'll contact you within 24 hours to schedule your free consultation."

/** Configures the site as the server does: `<meta name="agency-site" content="{json}">`. */
function setSiteMeta(settings: object) {
  const meta = document.createElement('meta')
  meta.name = 'agency-site'
  meta.content = JSON.stringify(settings)
  document.head.append(meta)
  resetSiteConfigForTests()
}

const section = (id: string) => within(document.getElementById(id) as HTMLElement)

beforeEach(() => {
  resetCatalogueCache()
  resetSiteConfigForTests()
})

afterEach(() => {
  document.head.querySelectorAll('meta[name="agency-site"]').forEach((meta) => meta.remove())
  resetSiteConfigForTests()
})

describe('/sales-funnel', () => {
  it('has one h1, benefits, the 7-day process, three testimonials, six logos and six FAQ questions', async () => {
    mockLanding()
    expect(await renderLanding('/sales-funnel')).toHaveTextContent('Done-For-You Sales Funnel in 7 Days')
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1)
    expect(section('benefits').getAllByRole('heading', { level: 3 })).toHaveLength(6)
    const days = section('process').getAllByRole('listitem')
    expect(days).toHaveLength(6)
    expect(days[days.length - 1]).toHaveTextContent('Day 7')
    expect(document.querySelectorAll('.testimonial')).toHaveLength(3)
    const logos = section('clients').getAllByRole('img')
    expect(logos).toHaveLength(6)
    for (const logo of logos) {
      expect(logo.getAttribute('src')).toMatch(/^\/logos\/[a-z-]+\.svg$/)
      expect(logo).toHaveAttribute('loading', 'lazy')
      expect(logo).toHaveAttribute('width')
      expect(logo).toHaveAttribute('height')
      expect(logo.getAttribute('alt')).not.toBe('')
    }
    expect(section('faq').getAllByRole('button')).toHaveLength(6)
    expect(section('faq').getByText(/14-day money-back guarantee/)).toBeInTheDocument()
  })

  it("shows the operator's client logos and testimonials: replaced, one switched off, no gap", async () => {
    setSiteMeta({
      claims: {
        ...DEV_SITE_CONFIG.claims,
        // What the server sends with logo 2 and testimonial 2 switched off and two replaced.
        logo_1: 'Weber Yoga Studio',
        logo_1_image: '/media/weber.svg',
        logo_2: 'Lumen Skincare',
        logo_2_image: '/logos/lumen-skincare.svg',
        logo_3: undefined,
        logo_4: undefined,
        logo_5: undefined,
        logo_6: undefined,
        t_sales_funnel_count: '2',
        t_sales_funnel_1_name: 'Maria Weber',
        t_sales_funnel_3: undefined,
      },
    })
    mockLanding()
    await renderLanding('/sales-funnel')
    const logos = section('clients').getAllByRole('img')
    expect(logos.map((logo) => logo.getAttribute('alt'))).toEqual(['Weber Yoga Studio', 'Lumen Skincare'])
    expect(logos[0]).toHaveAttribute('src', '/media/weber.svg')
    const quotes = document.querySelectorAll('.testimonial')
    expect(quotes).toHaveLength(2)
    expect(quotes[0]).toHaveTextContent('Maria Weber')
    expect(quotes[0]).toHaveTextContent('HK') // the initials are the server's, from the name it sends
  })

  it('every call to action goes to the booking section, none to /start', async () => {
    mockLanding()
    await renderLanding('/sales-funnel')
    expect(hrefsOf(CTA)).toEqual([BOOK, BOOK]) // hero and sticky mobile bar
    expect(screen.getByRole('region', { name: 'Quick action' })).toHaveTextContent(CTA)
    expect(document.getElementById('book')).not.toBeNull()
    await section('packages').findByText('€997')
    expect(hrefsOf('Book a Free Consultation')).toEqual([BOOK, BOOK, BOOK])
    expect(screen.queryAllByRole('link').filter((link) => link.getAttribute('href')?.startsWith('/start'))).toEqual([])
    expect(startHrefs()).toEqual([])
  })

  it('shows the three packages with their catalogue prices and Most Popular on Growth', async () => {
    mockLanding()
    await renderLanding('/sales-funnel')
    const packages = section('packages')
    expect(await packages.findByText('€997')).toBeInTheDocument()
    expect(packages.getByText('€1,997')).toBeInTheDocument()
    expect(packages.getByText('€4,997')).toBeInTheDocument()
    const names = packages.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)
    expect(names).toEqual(['Starter Funnel', 'Growth Funnel', 'Enterprise Funnel'])
    const growth = document.querySelector('[data-plan="growth-funnel"]') as HTMLElement
    expect(within(growth).getByText('Most Popular')).toBeInTheDocument()
    expect(document.querySelectorAll('.price-card__badge')).toHaveLength(1)
    expect(within(growth).getByText('60 days of support')).toBeInTheDocument()
    expect(packages.getAllByText('14-day money-back guarantee')).toHaveLength(3)
  })

  it('FAQ keeps one answer open at a time', async () => {
    mockLanding()
    await renderLanding('/sales-funnel')
    const buttons = section('faq').getAllByRole('button')
    const expanded = () => buttons.map((b) => b.getAttribute('aria-expanded'))
    expect(expanded()).toEqual(['true', 'false', 'false', 'false', 'false', 'false'])
    await userEvent.click(buttons[3])
    expect(expanded()).toEqual(['false', 'false', 'false', 'true', 'false', 'false'])
    expect(document.getElementById(buttons[3].getAttribute('aria-controls') as string)).toBeVisible()
    await userEvent.click(buttons[5])
    expect(expanded()).toEqual(['false', 'false', 'false', 'false', 'false', 'true'])
    await userEvent.click(buttons[5])
    expect(expanded()).toEqual(['false', 'false', 'false', 'false', 'false', 'false'])
  })

  it('loads the booking calendar only after the click, with the configured URL', async () => {
    setSiteMeta({ ...DEV_SITE_CONFIG, schedulingUrl: SCHEDULING_URL })
    const fetch = mockLanding()
    await renderLanding('/sales-funnel')
    const book = section('book')
    const toggle = book.getByRole('button', { name: 'Show booking calendar' })
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    expect(document.getElementById(toggle.getAttribute('aria-controls') as string)).not.toBeNull()
    expect(document.querySelector('iframe')).toBeNull()
    expect(fetch.mock.calls.some(([url]) => String(url).includes('calendar.example.eu'))).toBe(false)

    await userEvent.click(toggle)
    const frame = book.getByTitle('Booking calendar: free 30-minute consultation')
    expect(frame.tagName).toBe('IFRAME')
    expect(frame).toHaveAttribute('src', SCHEDULING_URL)
    expect(frame).toHaveAttribute('height', '700')
    expect(frame).toHaveAttribute('width', '100%')
    expect(frame).toHaveAttribute('loading', 'lazy')
    expect(frame).toHaveAttribute('referrerpolicy', 'strict-origin-when-cross-origin')
    expect(frame).toHaveClass('booking__frame')
    expect(book.getByRole('button', { name: 'Hide booking calendar' })).toHaveAttribute('aria-expanded', 'true')
    expect(book.queryByText(/Write to us at/)).toBeNull()
  })

  it('never frames a configured value that is not an http(s) address', async () => {
    setSiteMeta({ ...DEV_SITE_CONFIG, schedulingUrl: 'javascript:alert(1)' })
    mockLanding()
    await renderLanding('/sales-funnel')
    expect(await section('book').findByText(/Write to us at/)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Show booking calendar' })).toBeNull()
    expect(document.querySelector('iframe')).toBeNull()
  })

  it('offers a mailto link instead of the calendar when no scheduling URL is configured', async () => {
    mockLanding()
    await renderLanding('/sales-funnel')
    const book = section('book')
    const fallback = await book.findByText(/Write to us at/)
    expect(within(fallback.closest('p') as HTMLElement).getByRole('link', { name: DEV_SITE_CONFIG.contactEmail })).toHaveAttribute(
      'href',
      `mailto:${DEV_SITE_CONFIG.contactEmail}`,
    )
    expect(book.queryByRole('button', { name: 'Show booking calendar' })).toBeNull()
    expect(document.querySelector('iframe')).toBeNull()
  })

  it('shows the configured contact e-mail as a mailto link', async () => {
    setSiteMeta({ ...DEV_SITE_CONFIG, contactEmail: 'funnels@agency.example', schedulingUrl: SCHEDULING_URL })
    mockLanding()
    await renderLanding('/sales-funnel')
    expect(section('book').getByRole('link', { name: 'funnels@agency.example' })).toHaveAttribute('href', 'mailto:funnels@agency.example')
  })

  it('the teardown application is stored as a lead and thanked', async () => {
    const fetch = mockLanding(() => ({ status: 201, body: { message: THANKS } })) // the server's confirmation
    await renderLanding('/sales-funnel')
    const book = section('book')
    await userEvent.type(book.getByLabelText(/Your Name/), 'Mara Lind')
    await userEvent.type(book.getByLabelText(/Email Address/), 'mara@lind.example')
    await userEvent.click(book.getByRole('button', { name: 'Apply Now' }))
    expect(await book.findByText(THANKS)).toBeInTheDocument()
    const call = fetch.mock.calls.find(([url]) => url === '/api/leads') as [string, RequestInit]
    expect(JSON.parse(String(call[1].body))).toEqual({
      source: 'sales-funnel-teardown',
      email: 'mara@lind.example',
      name: 'Mara Lind',
      company_website: '',
      newsletter: false,
    })
  })
})
