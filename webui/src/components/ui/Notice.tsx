import type { ReactNode } from 'react'
import { cx } from '../../lib/cx'

export interface NoticeProps {
  children: ReactNode
  className?: string
  id?: string
}

/** Green confirmation note ("Profile saved."), announced politely (role="status"). */
export function Notice({ children, className, id }: NoticeProps) {
  return (
    <div id={id} className={cx('notice', className)} role="status">
      {children}
    </div>
  )
}
