import { useEffect, useState } from 'react'
import { cx } from '../../lib/cx'

export interface HeroVideoProps {
  /** Poster image (WebP), shown in the prerendered HTML and until the video plays. */
  poster: string
  posterWidth: number
  posterHeight: number
  webm: string
  mp4: string
}

interface NetworkInformationLike {
  saveData?: boolean
}

/** True when motion or data use should be kept to a minimum (no background video then). */
function prefersStill(): boolean {
  const reduced = typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches
  const connection = (navigator as Navigator & { connection?: NetworkInformationLike }).connection
  return reduced || connection?.saveData === true
}

/**
 * Decorative looping background video of a hero band. The prerendered markup holds only the
 * poster image; the <video> is added after the window's `load` event (so it never competes with
 * the first paint), and never under prefers-reduced-motion or Save-Data. It fades in once playing.
 */
/** Starts the loop once the <video> is attached (instead of the `autoplay` attribute, which
 * valid-HTML checks refuse: the page decides when it moves, after `load`). */
function startPlaying(video: HTMLVideoElement | null) {
  video?.play()?.catch(() => {})
}

export function HeroVideo({ poster, posterWidth, posterHeight, webm, mp4 }: HeroVideoProps) {
  const [attached, setAttached] = useState(false)
  const [playing, setPlaying] = useState(false)

  useEffect(() => {
    if (prefersStill()) return
    const attach = () => setAttached(true)
    if (document.readyState === 'complete') {
      // Reached by a client-side navigation: the page has long finished loading.
      const id = window.setTimeout(attach, 0)
      return () => window.clearTimeout(id)
    }
    window.addEventListener('load', attach, { once: true })
    return () => window.removeEventListener('load', attach)
  }, [])

  return (
    <div className="hero-video" aria-hidden="true">
      <img className="hero-video__poster" src={poster} alt="" width={posterWidth} height={posterHeight} decoding="async" />
      {attached && (
        <video
          className={cx('hero-video__video', playing && 'hero-video__video--playing')}
          ref={startPlaying}
          muted
          loop
          playsInline
          preload="none"
          aria-hidden="true"
          tabIndex={-1}
          poster={poster}
          width={posterWidth}
          height={posterHeight}
          onPlaying={() => setPlaying(true)}
        >
          <source src={webm} type="video/webm" />
          <source src={mp4} type="video/mp4" />
        </video>
      )}
      <div className="hero-video__overlay" />
    </div>
  )
}
