import { Card } from '../../components/ui/Card'
import { claimAttrs, claimSlots, claimText, type SlotKey } from '../../lib/claims'

/** A field of a testimonial slot (`quote`, `name`, ...), or null when it is empty. */
export const slotText = (slot: SlotKey, field: string) => claimText(`${slot}_${field}`)

/** A testimonial slot's field in its own element, cut by the server when the field is empty. */
export const fieldAttrs = (slot: SlotKey, field: string) => claimAttrs(`${slot}_${field}`)

export interface TestimonialsProps {
  /** The page's key in the claims configuration (`[testimonials.<page>.*]`). */
  page: string
  /** How many testimonials the page has in the bundled configuration. */
  slots: number
}

/** A grid of customer quotes with an initials avatar (no external images); every text is
 * the operator's (content/service/claims.py). */
export function Testimonials({ page, slots }: TestimonialsProps) {
  return (
    <ul className="testimonials">
      {claimSlots(`t_${page}`, slots).map((slot) => {
        const rating = slotText(slot, 'rating')
        const result = slotText(slot, 'result')
        return (
          <li key={slot} {...claimAttrs(slot)}>
            <Card className="testimonial">
              <figure className="testimonial__figure">
                {rating !== null && (
                  <p className="testimonial__stars" {...fieldAttrs(slot, 'rating')}>
                    <span className="visually-hidden">{rating}</span>
                    <span aria-hidden="true">{slotText(slot, 'stars')}</span>
                  </p>
                )}
                {result !== null && (
                  <p className="testimonial__result" {...fieldAttrs(slot, 'result')}>
                    {result}
                  </p>
                )}
                <blockquote className="testimonial__quote">
                  <p>“{slotText(slot, 'quote')}”</p>
                </blockquote>
                <figcaption className="testimonial__author">
                  <span className="testimonial__avatar" aria-hidden="true">
                    {slotText(slot, 'initials')}
                  </span>
                  <span>
                    <span className="testimonial__name">{slotText(slot, 'name')}</span>
                    <span className="testimonial__position">{slotText(slot, 'position')}</span>
                  </span>
                </figcaption>
              </figure>
            </Card>
          </li>
        )
      })}
    </ul>
  )
}
