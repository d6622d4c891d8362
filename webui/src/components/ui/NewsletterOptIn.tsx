import { useId } from 'react'

/** The box's name in a form: checked, the form sends `newsletter: true`. */
export const NEWSLETTER_NAME = 'newsletter'

/** Whether a form's values (`formValues`) carry a ticked newsletter box. */
export function ticked(value: string | undefined): boolean {
  return value === 'yes'
}

/**
 * The newsletter's opt-in: an unticked box of its own (never ticked for the visitor, never a
 * condition of the form), saying what the newsletter is, with the privacy policy beside it.
 * The e-mail joins the newsletter only when the visitor ticks it. (The checkbox's own markup,
 * not `Checkbox`: this sits in first loads kept within the JavaScript budget.) The wording is
 * versioned (newsletter-consent.ts): the server records that version with every ticked box.
 */
export function NewsletterOptIn() {
  const id = useId()
  return (
    <div className="checkbox newsletter-opt-in">
      <input id={id} type="checkbox" name={NEWSLETTER_NAME} value="yes" className="checkbox__input" />
      <label className="checkbox__label" htmlFor={id}>
        Also send me the newsletter: tips and offers by e-mail, unsubscribe at any time (
        {/* A plain link: the box sits in forms rendered outside the router too. */}
        <a href="/privacy">privacy policy</a>).
      </label>
    </div>
  )
}
