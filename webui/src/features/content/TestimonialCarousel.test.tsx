import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { resetCatalogueCache } from '../catalogue'
import { testCatalogue } from '@test/catalogue'
import { mockFetch, renderApp } from '@test/utils'
import { resetSiteConfigForTests } from '../../lib/site-config'
import { TestimonialCarousel, nextIndex, previousIndex } from './TestimonialCarousel'
import { Testimonials } from './Testimonials'

interface Item {
  quote: string
  name: string
  position: string
  avatar?: string
  result?: string
  rating?: number
}

const items: Item[] = [
  { quote: 'First quote.', name: 'Ana One', position: 'Owner, shop A', avatar: '/img/a.svg' },
  { quote: 'Second quote.', name: 'Ben Two', position: 'Owner, shop B', avatar: '/img/b.svg' },
  { quote: 'Third quote.', name: 'Cleo Three', position: 'Owner, shop C', avatar: '/img/c.svg' },
  { quote: 'Fourth quote.', name: 'Dan Four', position: 'Owner, shop D', avatar: '/img/d.svg' },
]

/** The claims the server sends for a page's testimonials that show (content/service/claims.py):
 * numbered slots from 1 with their fields, and the count. */
function testimonialClaims(page: string, shown: Item[]): Record<string, string> {
  const claims: Record<string, string> = { [`testimonials_${page}`]: 'on', [`t_${page}_count`]: String(shown.length) }
  shown.forEach((item, i) => {
    const slot = `t_${page}_${i + 1}`
    const rating = item.rating ?? 5
    Object.assign(claims, {
      [slot]: 'on',
      [`${slot}_quote`]: item.quote,
      [`${slot}_name`]: item.name,
      [`${slot}_position`]: item.position,
      [`${slot}_initials`]: item.name.split(' ').map((word) => word[0]).join(''),
      ...(item.avatar ? { [`${slot}_avatar`]: item.avatar } : {}),
      ...(item.result ? { [`${slot}_result`]: item.result } : {}),
      ...(rating ? { [`${slot}_rating`]: `Rated ${rating} out of 5`, [`${slot}_stars`]: '★'.repeat(rating) } : {}),
    })
  })
  return claims
}

/** The page as the server sends it: `<meta name="agency-site">` with these claims. */
function withClaims(claims: Record<string, string>) {
  document.head.querySelectorAll('meta[name="agency-site"]').forEach((old) => old.remove())
  const meta = document.createElement('meta')
  meta.name = 'agency-site'
  meta.content = JSON.stringify({ claims })
  document.head.append(meta)
  resetSiteConfigForTests()
}

afterEach(() => {
  document.head.querySelectorAll('meta[name="agency-site"]').forEach((meta) => meta.remove())
  resetSiteConfigForTests()
})

/** The one slide exposed to assistive technology (inactive slides are aria-hidden). */
const activeSlide = () => screen.getByRole('group', { name: /of 4$/ })
const dot = (n: number) => screen.getByRole('button', { name: `Show testimonial ${n}` })

function setup() {
  withClaims(testimonialClaims('test', items))
  render(<TestimonialCarousel page="test" slots={4} label="Customer testimonials" />)
  return userEvent.setup()
}

describe('TestimonialCarousel', () => {
  it('wraps its index at both ends', () => {
    expect(previousIndex(0, 4)).toBe(3)
    expect(previousIndex(2, 4)).toBe(1)
    expect(nextIndex(3, 4)).toBe(0)
    expect(nextIndex(1, 4)).toBe(2)
  })

  it('is a labelled carousel that starts at slide 0 with the first dot current', () => {
    setup()
    const region = screen.getByRole('region', { name: 'Customer testimonials' })
    expect(region).toHaveAttribute('aria-roledescription', 'carousel')
    expect(activeSlide()).toHaveAccessibleName('1 of 4')
    expect(activeSlide()).toHaveAttribute('aria-roledescription', 'slide')
    expect(within(activeSlide()).getByText('“First quote.”')).toBeInTheDocument()
    expect(within(activeSlide()).getByText('Ana One')).toBeInTheDocument()
    expect(within(activeSlide()).getByText('Owner, shop A')).toBeInTheDocument()
    expect(screen.getAllByRole('button', { name: /^Show testimonial \d$/ })).toHaveLength(4)
    expect(dot(1)).toHaveAttribute('aria-current', 'true')
    expect(dot(2)).not.toHaveAttribute('aria-current')
    // Every slide is rendered (one grid cell, tallest sets the height); the others are inert.
    const slides = document.querySelectorAll('[aria-roledescription="slide"]')
    expect(slides).toHaveLength(4)
    expect(slides[1]).toHaveAttribute('aria-hidden', 'true')
    expect(slides[1]).toHaveAttribute('inert')
    const avatar = slides[0]?.querySelector('img')
    expect(avatar).toHaveAttribute('width', '56')
    expect(avatar).toHaveAttribute('height', '56')
    expect(avatar).toHaveAttribute('loading', 'lazy')
  })

  it('previous from the first slide goes to the fourth; next from the fourth goes back to the first', async () => {
    const user = setup()
    await user.click(screen.getByRole('button', { name: 'Previous testimonial' }))
    expect(activeSlide()).toHaveAccessibleName('4 of 4')
    expect(within(activeSlide()).getByText('Dan Four')).toBeInTheDocument()
    expect(dot(4)).toHaveAttribute('aria-current', 'true')
    expect(dot(1)).not.toHaveAttribute('aria-current')
    await user.click(screen.getByRole('button', { name: 'Next testimonial' }))
    expect(activeSlide()).toHaveAccessibleName('1 of 4')
    await user.click(screen.getByRole('button', { name: 'Next testimonial' }))
    expect(activeSlide()).toHaveAccessibleName('2 of 4')
  })

  it('a dot jumps to its slide', async () => {
    const user = setup()
    await user.click(dot(3))
    expect(activeSlide()).toHaveAccessibleName('3 of 4')
    expect(within(activeSlide()).getByText('“Third quote.”')).toBeInTheDocument()
    expect(dot(3)).toHaveAttribute('aria-current', 'true')
    await user.click(dot(1))
    expect(activeSlide()).toHaveAccessibleName('1 of 4')
  })

  it('works from the keyboard: buttons by Tab and Enter, arrow keys inside the carousel', async () => {
    const user = setup()
    await user.tab()
    expect(screen.getByRole('button', { name: 'Previous testimonial' })).toHaveFocus()
    await user.keyboard('{Enter}')
    expect(activeSlide()).toHaveAccessibleName('4 of 4')
    await user.keyboard('{ArrowRight}')
    expect(activeSlide()).toHaveAccessibleName('1 of 4')
    await user.keyboard('{ArrowLeft}{ArrowLeft}')
    expect(activeSlide()).toHaveAccessibleName('3 of 4')
    await user.tab() // the slides hold nothing focusable: next comes the Next button
    expect(screen.getByRole('button', { name: 'Next testimonial' })).toHaveFocus()
  })
})

describe('testimonials from the claims configuration', () => {
  it('the carousel shows only the testimonials that show, counted without the one switched off', () => {
    withClaims(testimonialClaims('test', [items[0], items[2], { ...items[3], name: 'Eve Replaced', avatar: undefined, rating: 0 }] as Item[]))
    render(<TestimonialCarousel page="test" slots={4} label="Customer testimonials" />)
    expect(screen.getByRole('group', { name: '1 of 3' })).toBeInTheDocument()
    expect(document.querySelectorAll('[aria-roledescription="slide"]')).toHaveLength(3)
    expect(screen.getAllByRole('button', { name: /^Show testimonial \d$/ })).toHaveLength(3)
    expect(screen.queryByText('Ben Two')).not.toBeInTheDocument()
    const last = document.querySelector('[data-claim="t_test_3"]') as HTMLElement
    expect(within(last).getByText('Eve Replaced')).toBeInTheDocument()
    // No rating and no avatar configured: neither the stars nor an empty image.
    expect(last.querySelector('.testimonial__stars')).toBeNull()
    expect(last.querySelector('img')).toBeNull()
  })

  it('the grid shows the configured texts, a result only where one is set, and nothing when none shows', () => {
    withClaims(testimonialClaims('grid', [{ ...items[0], result: '+38% booked calls', rating: 4 }, items[1]]))
    const { container, unmount } = render(<Testimonials page="grid" slots={3} />)
    const quotes = container.querySelectorAll('li')
    expect(quotes).toHaveLength(2)
    expect(within(quotes[0] as HTMLElement).getByText('“First quote.”')).toBeInTheDocument()
    expect(within(quotes[0] as HTMLElement).getByText('+38% booked calls')).toBeInTheDocument()
    expect(within(quotes[0] as HTMLElement).getByText('Rated 4 out of 5')).toBeInTheDocument()
    expect(within(quotes[0] as HTMLElement).getByText('AO')).toBeInTheDocument()
    expect(quotes[1]?.querySelector('.testimonial__result')).toBeNull()
    expect(quotes[1]).toHaveAttribute('data-claim', 't_grid_2')
    unmount()
    withClaims({})
    const empty = render(<Testimonials page="grid" slots={3} />)
    expect(empty.container.querySelectorAll('li')).toHaveLength(0)
  })
})

describe('home testimonials', () => {
  beforeEach(() => resetCatalogueCache())

  it('sit between the features and the pricing, with four quotes starting at the first', async () => {
    mockFetch((_m, url) => (url === '/api/catalogue' ? { status: 200, body: testCatalogue } : { status: 404 }))
    renderApp('/')
    await screen.findByRole('heading', { level: 1, name: 'Your Website. Live in 24 Hours.' })
    const carousel = screen.getByRole('region', { name: 'Customer testimonials' })
    const features = document.getElementById('features') as HTMLElement
    const pricing = document.getElementById('pricing') as HTMLElement
    expect(features.compareDocumentPosition(carousel) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    expect(carousel.compareDocumentPosition(pricing) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    expect(within(carousel).getByRole('group', { name: /of 4$/ })).toHaveAccessibleName('1 of 4')
    expect(carousel.querySelectorAll('[aria-roledescription="slide"]')).toHaveLength(4)
    for (const img of carousel.querySelectorAll('img')) expect(img.getAttribute('src')).toMatch(/^\/img\/testimonials\/[a-z-]+\.svg$/)
  })
})
