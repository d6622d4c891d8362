import type { ReactNode } from 'react'
import { Container } from '../ui/Section'

export interface PageIntroProps {
  heading: string
  /** Small line above the heading. */
  eyebrow?: string
  text: ReactNode
  children?: ReactNode
}

/** Heading band used by pages whose full content arrives in later issues. */
export function PageIntro({ heading, eyebrow, text, children }: PageIntroProps) {
  return (
    <section className="page-intro">
      <Container size="md">
        {eyebrow && <p className="page-intro__eyebrow">{eyebrow}</p>}
        <h1 className="page-intro__title">{heading}</h1>
        <p className="page-intro__text">{text}</p>
        {children && <div className="page-intro__extra">{children}</div>}
      </Container>
    </section>
  )
}
