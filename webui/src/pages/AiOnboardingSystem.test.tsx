import { fireEvent, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it } from 'vitest'
import { mockLanding, renderLanding, startHrefs } from '@test/landing'
import { onboardingCost } from '../features/content'
import { resetCatalogueCache } from '../features/catalogue'

beforeEach(() => resetCatalogueCache())

const THANKS = "Thank you! We'll contact you within 24 hours to schedule your free onboarding audit."

const pricing = () => within(document.getElementById('pricing') as HTMLElement)
const card = (name: string) => within(pricing().getByRole('heading', { level: 3, name }).closest('.price-card') as HTMLElement)

describe('/ai-onboarding-system', () => {
  it('has one h1', async () => {
    mockLanding()
    expect(await renderLanding('/ai-onboarding-system')).toHaveTextContent('Onboard Every New Client on Autopilot')
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1)
  })

  it.each([
    ['Onboarding Essential', '€199', 'one-time', '/start?type=ai-onboarding&plan=ai-onboarding-essential'],
    ['Onboarding Pro', '€349', 'one-time', '/start?type=ai-onboarding&plan=ai-onboarding-pro'],
    ['Onboarding Agency', '€59', '/month', '/start?type=ai-onboarding&plan=ai-onboarding-agency'],
  ])('%s: %s %s, links to %s', async (name, price, suffix, href) => {
    mockLanding()
    await renderLanding('/ai-onboarding-system')
    expect(await pricing().findByRole('heading', { level: 3, name })).toBeInTheDocument()
    expect(card(name).getByText(price)).toBeInTheDocument()
    expect(card(name).getByText(suffix)).toBeInTheDocument()
    expect(card(name).getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', href)
  })

  it('every other call to action goes to the Pro plan', async () => {
    mockLanding()
    await renderLanding('/ai-onboarding-system')
    expect(screen.getAllByRole('link', { name: 'Automate My Onboarding' }).map((a) => a.getAttribute('href'))).toEqual(
      Array(2).fill('/start?type=ai-onboarding&plan=ai-onboarding-pro'),
    )
    expect(startHrefs().every((href) => href.startsWith('/start?type=ai-onboarding&plan=ai-onboarding-'))).toBe(true)
  })

  it('computes monthly hours, cost and savings', () => {
    expect(onboardingCost(10, 4, 50)).toEqual({ monthlyHours: 40, monthlyCost: 2000, savedHours: 28, savedMonthly: 1400, savedYearly: 16800 })
    expect(onboardingCost(Number(''), 4, -3)).toMatchObject({ monthlyHours: 0, monthlyCost: 0 })
  })

  it('the calculator updates its labelled results live', async () => {
    mockLanding()
    await renderLanding('/ai-onboarding-system')
    const calc = within(document.getElementById('calculator') as HTMLElement)
    fireEvent.change(calc.getByLabelText('New clients per month'), { target: { value: '12' } })
    fireEvent.change(calc.getByLabelText('Hours of onboarding per client'), { target: { value: '10' } })
    fireEvent.change(calc.getByLabelText('Hourly cost of your team (€)'), { target: { value: '75' } })
    expect(calc.getByTestId('calc-hours')).toHaveTextContent('120 h')
    expect(calc.getByTestId('calc-cost')).toHaveTextContent('€9,000')
    expect(calc.getByTestId('calc-saved-hours')).toHaveTextContent('84 h')
    expect(calc.getByTestId('calc-saved')).toHaveTextContent('€6,300')
    expect(calc.getByTestId('calc-saved-year')).toHaveTextContent('€75,600')
    expect(calc.getByTestId('calc-cost').closest('[aria-live]')).toHaveAttribute('aria-live', 'polite')
  })

  it('audit form posts the lead with its source', async () => {
    const fetch = mockLanding(() => ({ status: 201, body: { message: THANKS } })) // the server's confirmation
    await renderLanding('/ai-onboarding-system')
    const audit = within(document.getElementById('audit') as HTMLElement)
    await userEvent.type(audit.getByLabelText(/Agency Email Address/), 'team@agency.eu')
    await userEvent.click(audit.getByRole('button', { name: 'Get My Free Audit' }))
    expect(await audit.findByText(THANKS)).toBeInTheDocument()
    const call = fetch.mock.calls.find(([url]) => url === '/api/leads') as [string, RequestInit]
    expect(JSON.parse(String(call[1].body))).toEqual({ source: 'ai-onboarding-audit', email: 'team@agency.eu', company_website: '', newsletter: false })
  })
})
