import type { ReactNode } from 'react'
import { Badge } from '../../components/ui/Badge'
import { Container } from '../../components/ui/Section'
import { CheckList } from './Blocks'
import type { Line } from '../../lib/claims'

export interface LandingHeroProps {
  badge: ReactNode
  title: ReactNode
  lead: ReactNode
  /** Short proof points shown as a list of ticks. */
  points?: readonly Line[]
  actions: ReactNode
  /** Right-hand column: offer card or illustration. Headings in it follow the <h1>: use h2. */
  aside?: ReactNode
}

/** Hero band of a landing page (the page's only <h1>). */
export function LandingHero({ badge, title, lead, points, actions, aside }: LandingHeroProps) {
  return (
    <section className="hero landing-hero">
      <Container className="hero__grid">
        <div className="hero__copy">
          <Badge tone="purple" className="hero__badge">
            {badge}
          </Badge>
          <h1 className="hero__title">{title}</h1>
          <p className="hero__lead">{lead}</p>
          {points && points.length > 0 && <CheckList items={points} className="landing-hero__points" />}
          <div className="hero__actions">{actions}</div>
        </div>
        {aside && <div className="landing-hero__aside">{aside}</div>}
      </Container>
    </section>
  )
}

export interface SectionHeadProps {
  eyebrow: string
  title: string
  titleId: string
  text?: ReactNode
}

export function SectionHead({ eyebrow, title, titleId, text }: SectionHeadProps) {
  return (
    <div className="section-head">
      <p className="section-head__eyebrow">{eyebrow}</p>
      <h2 id={titleId} className="section-head__title">
        {title}
      </h2>
      {text && <p className="section-head__text">{text}</p>}
    </div>
  )
}
