import type { ReactNode } from 'react'

export function DashPageHeader({ heading, text }: { heading: string; text?: ReactNode }) {
  return (
    <header className="dash-page__header">
      <h1 className="dash-page__title">{heading}</h1>
      {text && <p className="dash-page__text">{text}</p>}
    </header>
  )
}
