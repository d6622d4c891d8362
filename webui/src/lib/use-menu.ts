import { useEffect, useRef, useState, type Dispatch, type RefObject, type SetStateAction } from 'react'
import { useLocation } from 'react-router-dom'

export interface Menu<C extends HTMLElement, B extends HTMLElement> {
  open: boolean
  setOpen: Dispatch<SetStateAction<boolean>>
  toggle: () => void
  close: () => void
  /** Holds the button and the panel: a press or focus outside it closes the menu. */
  containerRef: RefObject<C | null>
  /** The toggle button: Escape gives it the focus back. */
  buttonRef: RefObject<B | null>
}

/**
 * Open state of a menu or popover opened by a button: the public header's mobile menu, the
 * dashboard's mobile menu, user menu and notifications. While open it closes on Escape (focus
 * back to the button), on a mouse or touch press outside the container and when focus leaves
 * the container (Tab past the last item); it also closes on every navigation.
 */
export function useMenu<C extends HTMLElement = HTMLDivElement, B extends HTMLElement = HTMLButtonElement>(): Menu<C, B> {
  const { key } = useLocation()
  const [open, setOpen] = useState(false)
  const [openedAt, setOpenedAt] = useState(key)
  const containerRef = useRef<C>(null)
  const buttonRef = useRef<B>(null)

  // A navigation closes it, while rendering: the new page never shows it open.
  if (openedAt !== key) {
    setOpenedAt(key)
    setOpen(false)
  }

  useEffect(() => {
    const container = containerRef.current
    if (!open || !container) return undefined
    const outside = (target: EventTarget | null) => target instanceof Node && !container.contains(target)
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false)
        buttonRef.current?.focus()
      }
    }
    const onPress = (event: Event) => {
      if (outside(event.target)) setOpen(false)
    }
    const onFocusOut = (event: FocusEvent) => {
      if (outside(event.relatedTarget)) setOpen(false)
    }
    document.addEventListener('keydown', onKeyDown)
    document.addEventListener('mousedown', onPress)
    document.addEventListener('touchstart', onPress)
    container.addEventListener('focusout', onFocusOut)
    return () => {
      document.removeEventListener('keydown', onKeyDown)
      document.removeEventListener('mousedown', onPress)
      document.removeEventListener('touchstart', onPress)
      container.removeEventListener('focusout', onFocusOut)
    }
  }, [open])

  const toggle = () => setOpen((value) => !value)
  const close = () => setOpen(false)
  return { open, setOpen, toggle, close, containerRef, buttonRef }
}
