import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it } from 'vitest'
import { resetCatalogueCache } from '../catalogue'
import { testCatalogue } from '@test/catalogue'
import { mockFetch, renderApp } from '@test/utils'
import { TestimonialCarousel, nextIndex, previousIndex, type CarouselTestimonial } from './TestimonialCarousel'

const items: CarouselTestimonial[] = [
  { quote: 'First quote.', name: 'Ana One', position: 'Owner, shop A', avatar: '/img/a.svg' },
  { quote: 'Second quote.', name: 'Ben Two', position: 'Owner, shop B', avatar: '/img/b.svg' },
  { quote: 'Third quote.', name: 'Cleo Three', position: 'Owner, shop C', avatar: '/img/c.svg' },
  { quote: 'Fourth quote.', name: 'Dan Four', position: 'Owner, shop D', avatar: '/img/d.svg' },
]

/** The one slide exposed to assistive technology (inactive slides are aria-hidden). */
const activeSlide = () => screen.getByRole('group', { name: /of 4$/ })
const dot = (n: number) => screen.getByRole('button', { name: `Show testimonial ${n}` })

function setup() {
  render(<TestimonialCarousel items={items} label="Customer testimonials" />)
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
