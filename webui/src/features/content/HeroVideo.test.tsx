import { act, render } from '@testing-library/react'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { HeroVideo } from './HeroVideo'

const props = { poster: '/media/p.webp', posterWidth: 640, posterHeight: 360, webm: '/media/v.webm', mp4: '/media/v.mp4' }

function setReadyState(state: DocumentReadyState) {
  Object.defineProperty(document, 'readyState', { configurable: true, get: () => state })
}

afterEach(() => {
  Reflect.deleteProperty(document, 'readyState') // back to jsdom's own getter
})

describe('HeroVideo', () => {
  it('server markup holds only the sized, decorative poster', () => {
    const html = renderToString(<HeroVideo {...props} />)
    expect(html).not.toContain('<video')
    expect(html).toMatch(/<img[^>]*src="\/media\/p.webp"[^>]*alt=""[^>]*width="640"[^>]*height="360"/)
    expect(html).toContain('aria-hidden="true"')
  })

  it('adds the muted looping video only after the window load event', () => {
    setReadyState('loading')
    const { container } = render(<HeroVideo {...props} />)
    expect(container.querySelector('video')).toBeNull()
    act(() => {
      window.dispatchEvent(new Event('load'))
    })
    const video = container.querySelector('video') as HTMLVideoElement
    expect(video).not.toBeNull()
    expect(video.muted).toBe(true)
    expect(video.loop).toBe(true)
    expect(video).toHaveAttribute('playsinline')
    expect(video).toHaveAttribute('preload', 'none')
    expect(video).toHaveAttribute('aria-hidden', 'true')
    expect([...video.querySelectorAll('source')].map((s) => [s.getAttribute('src'), s.getAttribute('type')])).toEqual([
      ['/media/v.webm', 'video/webm'],
      ['/media/v.mp4', 'video/mp4'],
    ])
  })

  it('never adds the video under prefers-reduced-motion', () => {
    setReadyState('loading')
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('reduce'), media: query }))
    const { container } = render(<HeroVideo {...props} />)
    act(() => {
      window.dispatchEvent(new Event('load'))
    })
    expect(container.querySelector('video')).toBeNull()
  })

  it('never adds the video with Save-Data on', () => {
    setReadyState('loading')
    vi.stubGlobal('navigator', { ...navigator, connection: { saveData: true } })
    const { container } = render(<HeroVideo {...props} />)
    act(() => {
      window.dispatchEvent(new Event('load'))
    })
    expect(container.querySelector('video')).toBeNull()
  })
})
