import { fireEvent, screen, within } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { mockLanding, renderLanding, startHrefs } from '@test/landing'
import { resetCatalogueCache } from '../features/catalogue'

beforeEach(() => resetCatalogueCache())

const section = (id: string) => within(document.getElementById(id) as HTMLElement)

// The four routes and the plan each sells by default (DEV_SITE_CONFIG, as the server defaults).
const VARIANTS = [
  ['/ai-scale-startup', '/start?type=ai-scale&plan=ai-scale-builder', '€199', 'one-time payment'],
  ['/ai-scale-startup2', '/start?type=ai-scale&plan=ai-scale-plan', '€39', 'per month'],
  ['/ai-scale-startup3', '/start?type=ai-scale&plan=ai-scale-growth', '€399', 'one-time payment'],
  ['/ai-scale-startup4', '/start?type=ai-scale&plan=ai-scale-builder', '€199', 'one-time payment'],
] as const

describe.each(VARIANTS)('%s', (path, cta, price, suffix) => {
  it('shows the headline, the slots banner, the value stack and four FAQ questions', async () => {
    mockLanding()
    expect(await renderLanding(path)).toHaveTextContent('30 Videos and Posts in 24h From One Idea')
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1)
    expect(section('pricing').getByText('8 slots left this week')).toBeInTheDocument()
    expect(screen.getByTestId('value-total')).toHaveTextContent('Total value€4,250')
    expect(section('faq').getAllByRole('button')).toHaveLength(4)
    expect(section('faq').getAllByRole('button', { expanded: true })).toHaveLength(1)
    expect(document.querySelectorAll('.testimonial')).toHaveLength(3)
    expect(screen.getByRole('link', { name: 'See Pricing' })).toHaveAttribute('href', `${path}#pricing`)
  })

  it(`every call to action goes to ${cta}`, async () => {
    mockLanding()
    await renderLanding(path)
    const hrefs = startHrefs()
    // Hero, value stack, pricing card, closing call to action and the sticky mobile bar.
    expect(hrefs).toHaveLength(5)
    expect(new Set(hrefs)).toEqual(new Set([cta]))
    expect(screen.getAllByRole('link', { name: 'Start My Content Engine' }).map((a) => a.getAttribute('href'))).toEqual(Array(4).fill(cta))
    expect(screen.getByRole('region', { name: 'Quick action' })).toHaveTextContent('8 slots left this week')
    expect(within(screen.getByRole('region', { name: 'Quick action' })).getByRole('link', { name: 'Start Now' })).toHaveAttribute('href', cta)
  })

  it(`shows the catalogue price ${price} (${suffix}) in the pricing card and the value stack`, async () => {
    mockLanding()
    await renderLanding(path)
    expect(await section('pricing').findByText(price)).toBeInTheDocument()
    expect(section('pricing').getByText(suffix)).toBeInTheDocument()
    expect(section('value').getByText(price)).toBeInTheDocument()
  })
})

it('reads the plan of the route also with a trailing slash', async () => {
  mockLanding()
  await renderLanding('/ai-scale-startup3/')
  expect(new Set(startHrefs())).toEqual(new Set(['/start?type=ai-scale&plan=ai-scale-growth']))
})

describe('ROI calculator', () => {
  it('starts at 20 hours and €100: €2,000 weekly, €8,000 monthly, ROI against the plan\'s €199, and follows both inputs', async () => {
    mockLanding()
    await renderLanding('/ai-scale-startup')
    const roi = section('roi')
    const hours = roi.getByLabelText('Hours you spend on content per week')
    const rate = roi.getByLabelText('What an hour of your time is worth (€)')
    expect(hours).toHaveValue(20)
    expect(rate).toHaveValue(100)
    expect(roi.getByTestId('roi-weekly')).toHaveTextContent('€2,000')
    expect(roi.getByTestId('roi-monthly')).toHaveTextContent('€8,000')
    // Measured against the real price of the plan the page sells (Builder, €199 one-time).
    expect(await roi.findByText(/measured against the price of Content Engine Builder, €199/)).toBeInTheDocument()
    expect(roi.getByTestId('roi-percent')).toHaveTextContent('4,020%')
    expect(roi.getByTestId('roi-percent').closest('[aria-live]')).toHaveAttribute('aria-live', 'polite')

    fireEvent.change(hours, { target: { value: '10' } })
    expect(roi.getByTestId('roi-weekly')).toHaveTextContent('€1,000')
    expect(roi.getByTestId('roi-monthly')).toHaveTextContent('€4,000')
    expect(roi.getByTestId('roi-percent')).toHaveTextContent('2,010%')

    fireEvent.change(rate, { target: { value: '150' } })
    expect(roi.getByTestId('roi-weekly')).toHaveTextContent('€1,500')
    expect(roi.getByTestId('roi-monthly')).toHaveTextContent('€6,000')
    expect(roi.getByTestId('roi-percent')).toHaveTextContent('3,015%')
  })

  it('on the €39 monthly route the ROI is measured against €39 a month', async () => {
    mockLanding()
    await renderLanding('/ai-scale-startup2')
    const roi = section('roi')
    expect(await roi.findByText(/measured against the price of Content Engine Plan, €39/)).toBeInTheDocument()
    expect(roi.getByTestId('roi-percent')).toHaveTextContent('20,513%')
  })

  it('explains bad input inline instead of showing NaN', async () => {
    mockLanding()
    await renderLanding('/ai-scale-startup')
    const roi = section('roi')
    const hours = roi.getByLabelText('Hours you spend on content per week')
    fireEvent.change(hours, { target: { value: '' } })
    expect(roi.getByText('Enter the hours you spend on content each week.')).toBeInTheDocument()
    expect(hours).toHaveAttribute('aria-invalid', 'true')
    expect(hours).toHaveAccessibleDescription('Enter the hours you spend on content each week.')
    expect(roi.getByTestId('roi-percent')).toHaveTextContent('–')
    fireEvent.change(hours, { target: { value: '-4' } })
    expect(roi.getByText('Hours per week cannot be negative.')).toBeInTheDocument()
    fireEvent.change(hours, { target: { value: '900' } })
    expect(roi.getByText('A week has 168 hours: enter 168 or less.')).toBeInTheDocument()
    fireEvent.change(roi.getByLabelText('What an hour of your time is worth (€)'), { target: { value: '1e9' } })
    expect(roi.getByText('Enter an hourly value of €10,000 or less.')).toBeInTheDocument()
    expect(document.getElementById('roi')?.textContent).not.toMatch(/NaN|Infinity/)
    fireEvent.change(hours, { target: { value: '20' } })
    fireEvent.change(roi.getByLabelText('What an hour of your time is worth (€)'), { target: { value: '100' } })
    expect(await roi.findByText('4,020%')).toBeInTheDocument()
    expect(roi.queryByText('Correct the highlighted figure to see your results.')).toBeNull()
  })
})
