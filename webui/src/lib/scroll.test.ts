import { afterEach, describe, expect, it, vi } from 'vitest'
import { RENDERED_BAND_CLASS, scrollToId } from './scroll'

function page(): HTMLElement {
  document.body.innerHTML = `
    <main>
      <section class="hero" id="top"></section>
      <section class="section" id="one"></section>
      <section class="section" id="two"><div id="inside-two"></div></section>
      <section class="section" id="three"></section>
      <section class="section" id="four"></section>
    </main>`
  return document.body
}

const rendered = () => [...document.querySelectorAll(`.${RENDERED_BAND_CLASS}`)].map((band) => band.id)

describe('scrollToId', () => {
  afterEach(() => {
    document.body.innerHTML = ''
    vi.restoreAllMocks()
  })

  it('lays out the bands up to the target and leaves the ones after it lazy', () => {
    page()
    const scrolled = vi.fn()
    Element.prototype.scrollIntoView = scrolled
    expect(scrollToId('inside-two')).toBe(true)
    expect(rendered()).toEqual(['one', 'two'])
    expect(scrolled).toHaveBeenCalledTimes(1)
  })

  it('counts the target band itself and everything above it', () => {
    page()
    Element.prototype.scrollIntoView = vi.fn()
    scrollToId('four')
    expect(rendered()).toEqual(['one', 'two', 'three', 'four'])
  })

  it('renders nothing extra for a target above the bands', () => {
    page()
    Element.prototype.scrollIntoView = vi.fn()
    scrollToId('top')
    expect(rendered()).toEqual([])
  })

  it('answers false for a missing id and touches nothing', () => {
    page()
    expect(scrollToId('nope')).toBe(false)
    expect(rendered()).toEqual([])
  })
})
