import type { ReactNode } from 'react'

export interface AuthCardProps {
  heading: string
  text?: ReactNode
  children: ReactNode
  /** Links under the card body ("New here? Create an account"). */
  footer?: ReactNode
}

/** Centered card used by the log-in, sign-up and password pages. */
export function AuthCard({ heading, text, children, footer }: AuthCardProps) {
  return (
    <section className="auth-page">
      <div className="auth-card">
        <h1 className="auth-card__title">{heading}</h1>
        {text && <p className="auth-card__text">{text}</p>}
        <div className="auth-card__body">{children}</div>
        {footer && <div className="auth-card__footer">{footer}</div>}
      </div>
    </section>
  )
}
