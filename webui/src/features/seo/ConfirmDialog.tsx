import { useEffect, useId, useRef, type ReactNode } from 'react'
import { Button } from '../../components/ui/Button'

export interface ConfirmDialogProps {
  title: string
  children: ReactNode
  /** The confirming button's words (e.g. "Archive"). */
  confirm: string
  onConfirm: () => void
  onCancel: () => void
}

/**
 * A modal question (role alertdialog): the focus starts on Cancel, the safe answer; Tab and
 * Shift+Tab stay on its buttons; Escape cancels. The caller puts the focus back where it was.
 */
export function ConfirmDialog({ title, children, confirm, onConfirm, onCancel }: ConfirmDialogProps) {
  const id = useId()
  const box = useRef<HTMLDivElement>(null)
  const cancel = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    cancel.current?.focus()
  }, [])

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault()
        onCancel()
        return
      }
      if (event.key !== 'Tab' || box.current === null) return
      const buttons = [...box.current.querySelectorAll<HTMLButtonElement>('button:not(:disabled)')]
      const first = buttons[0]
      const last = buttons[buttons.length - 1]
      if (!first || !last) return
      const inside = box.current.contains(document.activeElement)
      if (event.shiftKey && (document.activeElement === first || !inside)) {
        event.preventDefault()
        last.focus()
      } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
        event.preventDefault()
        first.focus()
      }
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [onCancel])

  return (
    <div className="seo-dialog">
      <div
        ref={box}
        className="seo-dialog__box card"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-text`}
      >
        <h2 id={`${id}-title`} className="seo-dialog__title">
          {title}
        </h2>
        <div id={`${id}-text`} className="seo-dialog__text">
          {children}
        </div>
        <div className="seo-dialog__actions">
          <Button ref={cancel} variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button variant="danger" onClick={onConfirm}>
            {confirm}
          </Button>
        </div>
      </div>
    </div>
  )
}
