import { useId, useState, type KeyboardEvent } from 'react'
import { ArrowRightIcon } from '../../components/icons/ArrowRightIcon'
import { cx } from '../../lib/cx'

export interface CarouselTestimonial {
  quote: string
  name: string
  position: string
  /** Self-hosted avatar (96x96 SVG under public/img/testimonials/). */
  avatar: string
}

/** Previous index, wrapping from the first slide to the last. */
export function previousIndex(index: number, count: number): number {
  return (index - 1 + count) % count
}

/** Next index, wrapping from the last slide to the first. */
export function nextIndex(index: number, count: number): number {
  return (index + 1) % count
}

export interface TestimonialCarouselProps {
  items: readonly CarouselTestimonial[]
  /** Accessible name of the carousel region. */
  label: string
}

/**
 * One customer quote at a time with previous/next buttons and one dot button per quote.
 * Wraps at both ends; starts (and prerenders) at slide 0; no autoplay. The left and right
 * arrow keys move between quotes while focus is inside the carousel. All slides share one
 * grid cell (the tallest sets the height, so the buttons never jump); the inactive ones are
 * invisible, inert and hidden from assistive technology.
 */
export function TestimonialCarousel({ items, label }: TestimonialCarouselProps) {
  const [index, setIndex] = useState(0)
  const baseId = useId()
  const count = items.length
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
          {items.map((item, i) => (
            <div
              key={item.name}
              id={`${baseId}-slide-${i}`}
              className={cx('carousel__slide', i === index && 'carousel__slide--active')}
              role="group"
              aria-roledescription="slide"
              aria-label={`${i + 1} of ${count}`}
              aria-hidden={i !== index || undefined}
              inert={i !== index}
            >
              <figure className="carousel__figure">
                <p className="testimonial__stars">
                  <span aria-hidden="true">★★★★★</span>
                  <span className="visually-hidden">Rated 5 out of 5</span>
                </p>
                <blockquote className="carousel__quote">
                  <p>“{item.quote}”</p>
                </blockquote>
                <figcaption className="carousel__author">
                  <img className="carousel__avatar" src={item.avatar} alt="" width={56} height={56} loading="lazy" decoding="async" />
                  <span>
                    <span className="testimonial__name">{item.name}</span>
                    <span className="testimonial__position">{item.position}</span>
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
        {items.map((item, i) => (
          <button
            key={item.name}
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
