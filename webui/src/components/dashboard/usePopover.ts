import { useEffect, type RefObject } from 'react'

/**
 * Closes an open popover (user menu, notifications) on Escape (focus back to its button),
 * on a pointer press outside it and when focus leaves it (Tab past the last item).
 */
export function usePopover(
  open: boolean,
  close: () => void,
  containerRef: RefObject<HTMLElement | null>,
  buttonRef: RefObject<HTMLElement | null>,
) {
  useEffect(() => {
    if (!open) return undefined
    const container = containerRef.current
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        close()
        buttonRef.current?.focus()
      }
    }
    const onPointerDown = (event: Event) => {
      if (container && event.target instanceof Node && !container.contains(event.target)) close()
    }
    const onFocusOut = (event: FocusEvent) => {
      const next = event.relatedTarget
      if (container && next instanceof Node && !container.contains(next)) close()
    }
    document.addEventListener('keydown', onKeyDown)
    document.addEventListener('mousedown', onPointerDown)
    document.addEventListener('touchstart', onPointerDown)
    container?.addEventListener('focusout', onFocusOut)
    return () => {
      document.removeEventListener('keydown', onKeyDown)
      document.removeEventListener('mousedown', onPointerDown)
      document.removeEventListener('touchstart', onPointerDown)
      container?.removeEventListener('focusout', onFocusOut)
    }
  }, [open, close, containerRef, buttonRef])
}
