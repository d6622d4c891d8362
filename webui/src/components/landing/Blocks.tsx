import type { ComponentType, ReactNode } from 'react'
import type { IconProps } from '../icons/Icon'
import { ShieldIcon } from '../icons/ShieldIcon'
import { Card } from '../ui/Card'
import { cx } from '../../lib/cx'

export interface IconCardItem {
  title: string
  text: string
  Icon: ComponentType<IconProps>
}

/** Grid of icon cards (features, fixes, what-it-does). */
export function IconCards({ items, columns = 4 }: { items: readonly IconCardItem[]; columns?: 3 | 4 }) {
  return (
    <ul className={cx('feature-grid', `feature-grid--${columns}`)}>
      {items.map(({ title, text, Icon }) => (
        <li key={title}>
          <Card className="info-card">
            <span className="icon-tile">
              <Icon />
            </span>
            <h3 className="info-card__title">{title}</h3>
            <p className="info-card__text">{text}</p>
          </Card>
        </li>
      ))}
    </ul>
  )
}

export interface StepItem {
  title: string
  text: string
}

/** Numbered "how it works" steps. */
export function Steps({ items }: { items: readonly StepItem[] }) {
  return (
    <ol className={cx('steps', items.length === 4 ? 'steps--4' : 'steps--3')}>
      {items.map((step, index) => (
        <li key={step.title}>
          <Card className="step">
            <span className="step__number" aria-hidden="true">
              {index + 1}
            </span>
            <h3 className="step__title">
              <span className="visually-hidden">Step {index + 1}: </span>
              {step.title}
            </h3>
            <p className="step__text">{step.text}</p>
          </Card>
        </li>
      ))}
    </ol>
  )
}

/** Money-back guarantee band. */
export function Guarantee({ title, children, titleId }: { title: string; children: ReactNode; titleId: string }) {
  return (
    <div className="guarantee">
      <span className="guarantee__seal">
        <ShieldIcon size={44} />
      </span>
      <div>
        <h2 id={titleId} className="guarantee__title">
          {title}
        </h2>
        <div className="guarantee__text">{children}</div>
      </div>
    </div>
  )
}
