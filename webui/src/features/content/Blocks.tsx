import type { ComponentType, ReactNode } from 'react'
import { CheckIcon } from '../../components/icons/CheckIcon'
import type { IconProps } from '../../components/icons/Icon'
import { ShieldIcon } from '../../components/icons/ShieldIcon'
import { ButtonLink } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { Section } from '../../components/ui/Section'
import { cx } from '../../lib/cx'
import { claimAttrs, claimShown, shownLines, type ClaimKey, type Line } from '../../lib/claims'

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

/** A list of ticked lines; `className` is the list's own (`check-list lead-panel__list`, ...).
 * A line may be a claim (shown only while it is on). */
export function CheckList({ items, className }: { items: readonly Line[]; className: string }) {
  return (
    <ul className={className}>
      {shownLines(items).map((line) => (
        <li key={line.key} {...line.attrs}>
          <CheckIcon size={18} className="check-list__icon" />
          {line.text}
        </li>
      ))}
    </ul>
  )
}

/** A short fact after its icon, as in an offer card's list. */
export type Fact = readonly [Icon: ComponentType<IconProps>, text: string]

/** A list of facts, each after its icon (an offer card's by default). */
export function FactList({ items, className = 'offer-card__facts' }: { items: readonly Fact[]; className?: string }) {
  return (
    <ul className={className}>
      {items.map(([Icon, text]) => (
        <li key={text}>
          <Icon size={18} />
          {text}
        </li>
      ))}
    </ul>
  )
}

export interface OfferCardProps {
  /** The line above the name; none, or a claim left out, leaves no empty ribbon. */
  ribbon?: ReactNode
  ribbonClassName?: string
  /** The claim the ribbon holds (the ribbon shows only while it is on). */
  ribbonClaim?: ClaimKey
  /** The offer's name: h2 in a hero aside or as its section's title, h3 under a section head. */
  name: string
  nameAs?: 'h2' | 'h3'
  nameId?: string
  /** Between the name and the facts, usually the offer's price. */
  children: ReactNode
  facts: readonly Fact[]
  /** The call to action. */
  to: string
  action: string
  /** Small print under the button. */
  fine: string
  className?: string
  role?: 'group'
  'aria-labelledby'?: string
}

/** An offer card: ribbon, name, price (children), facts, call to action and small print. */
export function OfferCard({ ribbon, ribbonClassName, ribbonClaim, name, nameAs: Name = 'h2', nameId, children, facts, to, action, fine, className, ...group }: OfferCardProps) {
  const showRibbon = ribbon !== undefined && (!ribbonClaim || claimShown(ribbonClaim))
  return (
    <Card className={cx('offer-card', className)} {...group}>
      {showRibbon && (
        <p className={cx('offer-card__ribbon', ribbonClassName)} {...(ribbonClaim ? claimAttrs(ribbonClaim) : {})}>
          {ribbon}
        </p>
      )}
      <Name id={nameId} className="offer-card__name">
        {name}
      </Name>
      {children}
      <FactList items={facts} />
      <ButtonLink to={to} size="lg" block>
        {action}
      </ButtonLink>
      <p className="offer-card__fine">{fine}</p>
    </Card>
  )
}

export interface LeadPanelProps {
  eyebrow?: string
  title: string
  titleId: string
  text: ReactNode
  /** Ticked lines under the text. */
  points?: readonly string[]
  /** More of the pitch, after the points (a phone number, ...). */
  children?: ReactNode
  /** What the card on the right holds, usually a LeadForm. */
  card: ReactNode
  cardClassName?: string
  className?: string
  introClassName?: string
}

/** Two columns: the pitch on the left, a card (the lead form) on the right. */
export function LeadPanel({ eyebrow, title, titleId, text, points, children, card, cardClassName, className, introClassName }: LeadPanelProps) {
  return (
    <div className={cx('lead-panel', className)}>
      <div className={introClassName}>
        {eyebrow && <p className="section-head__eyebrow">{eyebrow}</p>}
        <h2 id={titleId} className="lead-panel__title">
          {title}
        </h2>
        <p className="lead-panel__text">{text}</p>
        {points && <CheckList items={points} className="check-list lead-panel__list" />}
        {children}
      </div>
      <Card className={cx('lead-panel__card', cardClassName)}>{card}</Card>
    </div>
  )
}

export interface ClosingCtaProps {
  title: string
  titleId?: string
  text: ReactNode
  /** The buttons, in the band's `closing-cta__actions` row, after `children`. */
  actions?: ReactNode
  /** Anything before the buttons (a page's points); a page whose points follow its buttons
   * writes the `closing-cta__actions` row itself here. */
  children?: ReactNode
}

/** The closing call-to-action band at the end of a page. */
export function ClosingCta({ title, titleId = 'closing-title', text, actions, children }: ClosingCtaProps) {
  return (
    <Section tone="accent" className="closing-cta" aria-labelledby={titleId}>
      <div className="closing-cta__inner">
        <h2 id={titleId} className="closing-cta__title">
          {title}
        </h2>
        <p className="closing-cta__text">{text}</p>
        {children}
        {actions && <div className="closing-cta__actions">{actions}</div>}
      </div>
    </Section>
  )
}
