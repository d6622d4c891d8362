/**
 * What a visitor typed into a prerendered form before React hydrated it.
 *
 * The next render of a hydrated controlled input puts React's state (empty) back into it, so
 * `main.tsx` notes what was typed just before it hydrates, and gives each value back through
 * React's own change handling once that has happened. The public forms also take their fields
 * over as they are when they hydrate (`useAdoptFilledFields` in lib/forms.ts).
 */

type TypedValue = [id: string, value: string | boolean]

/** Notes every field of `container` whose value (or checked state) differs from the markup's. */
export function rememberTypedValues(container: HTMLElement): TypedValue[] {
  const typed: TypedValue[] = []
  container.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[id], textarea[id]').forEach((field) => {
    if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio')) {
      if (field.checked !== field.defaultChecked) typed.push([field.id, field.checked])
    } else if (field.value !== field.defaultValue) {
      typed.push([field.id, field.value])
    }
  })
  return typed
}

/** Gives each typed value back once React has taken its field over (page content hydrates in
 * a later pass than the shell, so this looks again every 50 ms, for at most 5 s). */
export function replayTypedValues(typed: TypedValue[], deadline = Date.now() + 5000) {
  const waiting = typed.filter(([id, value]) => {
    const field = document.getElementById(id)
    if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)) return false
    if (typeof value === 'boolean') {
      if (!(field instanceof HTMLInputElement) || field.checked === value) return true // not yet
      field.click() // a click is how React learns of a checkbox change
      return false
    }
    if (field.value === value) return true // not hydrated yet: look again
    // React listens to the native setter + input event, not to a plain assignment.
    const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value')?.set
    setter?.call(field, value)
    field.dispatchEvent(new Event('input', { bubbles: true }))
    return false
  })
  if (waiting.length > 0 && Date.now() < deadline) setTimeout(() => replayTypedValues(waiting, deadline), 50)
}
