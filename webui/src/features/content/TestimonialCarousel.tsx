import { useId, useState, type KeyboardEvent } from 'react'
import { ArrowRightIcon } from '../../components/icons/ArrowRightIcon'
import { claimAttrs, claimSlots, claimText } from '../../lib/claims'
import { cx } from '../../lib/cx'
import { fieldAttrs, slotText } from './Testimonials'

/** Previous index, wrapping from the first slide to the last. */
export function previousIndex(index: number, count: number): number {
  return (index - 1 + count) % count
}

/** Next index, wrapping from the last slide to the first. */
export function nextIndex(index: number, count: number): number {
  return (index + 1) % count
}

export interface TestimonialCarouselProps {
  /** The page's key in the claims configuration (`[testimonials.<page>.*]`). */
  page: string
  /** How many testimonials the page has in the bundled configuration. */
  slots: number
  /** Accessible name of the carousel region. */
  label: string
}

/**
 * One customer quote at a time with previous/next buttons and one dot button per quote.
 * Wraps at both ends; starts (and prerenders) at slide 0; no autoplay. The left and right
 * arrow keys move between quotes while focus is inside the carousel. All slides share one
 * grid cell (the tallest sets the height, so the buttons never jump); the inactive ones are
 * invisible, inert and hidden from assistive technology. The texts, avatars and the count in
 * the slides' names are the operator's (content/service/claims.py), so the server's page and
 * the hydrated one agree however many testimonials show.
 */
export function TestimonialCarousel({ page, slots, label }: TestimonialCarouselProps) {
  const [index, setIndex] = useState(0)
  const baseId = useId()
  const items = claimSlots(`t_${page}`, slots)
  const count = items.length
  const shownCount = claimText(`t_${page}_count`)
  if (count === 0) return null

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'ArrowLeft') {
      event.preventDefault()
      setIndex((i) => previousIndex(i, count))
    } else if (event.key === 'ArrowRight') {
      event.preventDefault()
      setIndex((i) => nextIndex(i, count))
    }
  }

  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- delegation: the section is not focusable; it handles the arrow keys that bubble up from its buttons
    <section className="carousel" aria-roledescription="carousel" aria-label={label} onKeyDown={onKeyDown}>
      <div className="carousel__viewport">
        <button
          type="button"
          className="carousel__arrow carousel__arrow--prev"
          aria-controls={`${baseId}-slides`}
          aria-label="Previous testimonial"
          onClick={() => setIndex((i) => previousIndex(i, count))}
        >
          <ArrowRightIcon size={20} className="carousel__arrow-icon--flip" />
        </button>
        <div id={`${baseId}-slides`} className="carousel__slides" aria-live="polite">
          {items.map((slot, i) => (
            <div
              key={slot}
              {...claimAttrs(slot)}
              id={`${baseId}-slide-${i}`}
              className={cx('carousel__slide', i === index && 'carousel__slide--active')}
              role="group"
              aria-roledescription="slide"
              aria-label={`${i + 1} of ${shownCount}`}
              aria-hidden={i !== index || undefined}
              inert={i !== index}
            >
              <figure className="carousel__figure">
                {slotText(slot, 'rating') !== null && (
                  <p className="testimonial__stars" {...fieldAttrs(slot, 'rating')}>
                    <span aria-hidden="true">{slotText(slot, 'stars')}</span>
                    <span className="visually-hidden">{slotText(slot, 'rating')}</span>
                  </p>
                )}
                <blockquote className="carousel__quote">
                  <p>“{slotText(slot, 'quote')}”</p>
                </blockquote>
                <figcaption className="carousel__author">
                  {slotText(slot, 'avatar') !== null && (
                    <img
                      className="carousel__avatar"
                      {...fieldAttrs(slot, 'avatar')}
                      src={slotText(slot, 'avatar') ?? undefined}
                      alt=""
                      width={56}
                      height={56}
                      loading="lazy"
                      decoding="async"
                    />
                  )}
                  <span>
                    <span className="testimonial__name">{slotText(slot, 'name')}</span>
                    <span className="testimonial__position">{slotText(slot, 'position')}</span>
                  </span>
                </figcaption>
              </figure>
            </div>
          ))}
        </div>
        <button
          type="button"
          className="carousel__arrow carousel__arrow--next"
          aria-controls={`${baseId}-slides`}
          aria-label="Next testimonial"
          onClick={() => setIndex((i) => nextIndex(i, count))}
        >
          <ArrowRightIcon size={20} />
        </button>
      </div>
      <div className="carousel__dots" role="group" aria-label="Choose a testimonial">
        {items.map((slot, i) => (
          <button
            key={slot}
            {...claimAttrs(slot)}
            type="button"
            className={cx('carousel__dot', i === index && 'carousel__dot--active')}
            aria-label={`Show testimonial ${i + 1}`}
            aria-controls={`${baseId}-slide-${i}`}
            aria-current={i === index ? 'true' : undefined}
            onClick={() => setIndex(i)}
          />
        ))}
      </div>
    </section>
  )
}
