import type { ReactNode } from 'react'
import { cx } from '../../lib/cx'

export interface ErrorBoxProps {
  title?: ReactNode
  children: ReactNode
  className?: string
  id?: string
}

/** Red alert box, announced by screen readers (role="alert"). */
export function ErrorBox({ title, children, className, id }: ErrorBoxProps) {
  return (
    <div id={id} className={cx('error-box', className)} role="alert">
      {title && <p className="error-box__title">{title}</p>}
      <div className="error-box__body">{children}</div>
    </div>
  )
}
