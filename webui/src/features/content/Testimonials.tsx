import { Card } from '../../components/ui/Card'

export interface Testimonial {
  quote: string
  name: string
  position: string
  /** Short measurable outcome shown as a highlight, e.g. "+38% booked calls". */
  result?: string
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .map((part) => part[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase()
}

/** A grid of static customer quotes with an initials avatar (no external images). */
export function Testimonials({ items }: { items: readonly Testimonial[] }) {
  return (
    <ul className="testimonials">
      {items.map((item) => (
        <li key={item.name}>
          <Card className="testimonial">
            <figure className="testimonial__figure">
              <p className="testimonial__stars">
                <span className="visually-hidden">Rated 5 out of 5</span>
                <span aria-hidden="true">★★★★★</span>
              </p>
              {item.result && <p className="testimonial__result">{item.result}</p>}
              <blockquote className="testimonial__quote">
                <p>“{item.quote}”</p>
              </blockquote>
              <figcaption className="testimonial__author">
                <span className="testimonial__avatar" aria-hidden="true">
                  {initials(item.name)}
                </span>
                <span>
                  <span className="testimonial__name">{item.name}</span>
                  <span className="testimonial__position">{item.position}</span>
                </span>
              </figcaption>
            </figure>
          </Card>
        </li>
      ))}
    </ul>
  )
}
