import type { ReactNode } from 'react'
import type DEFAULT_CLAIMS from './claims-defaults.json'
import { siteConfig } from './site-config'

/**
 * Claims only the operator can vouch for (urgency and scarcity texts, marketing figures,
 * testimonials, client logos) come from the server's claims configuration, never from code
 * (src/agency/modules/content/service/claims.py; `urgency_claims = false` removes every urgency claim).
 *
 * The element that holds a claim carries `data-claim="<key>"`; what shows instead when it is
 * off carries `data-claim-off="<key>"`. The prerender renders both and every text as a token;
 * the server cuts what does not apply and fills the tokens, and the client renders the same
 * from `<meta name="agency-site">`: the page shows the configured claims without JS, hydrates
 * without a change and never leaves an empty box.
 */
export type ClaimKey = keyof typeof DEFAULT_CLAIMS

/** A numbered slot of a list of claims (`t_<page>_<n>` testimonials, `logo_<n>` logos) or one
 * of its fields (`t_home_1_quote`): the server fills the slots in order with the entries that
 * show, so a list never has a gap. */
export type SlotKey = `t_${string}` | `logo_${string}`

const prerendering = () => typeof document === 'undefined'

/** The claim's text, or null when it is off (in the prerender: its token). */
export function claimText(key: ClaimKey | SlotKey): string | null {
  const text = siteConfig().claims[key]
  return typeof text === 'string' && text !== '' ? text : null
}

/** Whether a claim (or a section: testimonials, client_logos) shows. */
export const claimShown = (key: ClaimKey | SlotKey) => claimText(key) !== null

/** The slots of a list that show, of `slots` at most (`claimSlots('t_home', 4)`). */
export function claimSlots(prefix: `t_${string}` | 'logo', slots: number): SlotKey[] {
  const shown: SlotKey[] = []
  for (let n = 1; n <= slots; n++) {
    const slot: SlotKey = `${prefix}_${n}`
    if (claimShown(slot)) shown.push(slot)
  }
  return shown
}

/** Props of the element that holds a claim. */
export const claimAttrs = (key: ClaimKey | SlotKey) => ({ 'data-claim': key })

/** Whether the stand-in of a claim is rendered: when the claim is off, and in the prerender. */
export const standInShown = (key: ClaimKey) => prerendering() || !claimShown(key)

/** Props of the element shown instead of a claim that is off. */
export const standInAttrs = (key: ClaimKey) => ({ 'data-claim-off': key })

export interface ClaimProps {
  claim: ClaimKey
  /** The element holding the text (default a span). */
  as?: 'span' | 'p' | 'li' | 'strong'
  className?: string
  /** What the text becomes, e.g. `(t) => \`${t}.\``. */
  children?: (text: string) => ReactNode
  /** Shown instead when the claim is off (in the same element type). */
  fallback?: ReactNode
}

/** A claim's text in its own element, or its fallback (or nothing) when it is off. */
export function Claim({ claim, as: Tag = 'span', className, children, fallback }: ClaimProps) {
  const text = claimText(claim)
  return (
    <>
      {text !== null && (
        <Tag className={className} {...claimAttrs(claim)}>
          {children ? children(text) : text}
        </Tag>
      )}
      {fallback !== undefined && standInShown(claim) && (
        <Tag className={className} {...standInAttrs(claim)}>
          {fallback}
        </Tag>
      )}
    </>
  )
}

/** A list line that is a claim: shown only while the claim is on. */
export interface ClaimLine {
  claim: ClaimKey
}

export type Line = string | ClaimLine

/** The lines of a list that show, each with its text and the props of its element. */
export function shownLines(items: readonly Line[]): { key: string; text: string; attrs: Record<string, string> }[] {
  const lines: { key: string; text: string; attrs: Record<string, string> }[] = []
  for (const item of items) {
    if (typeof item === 'string') {
      lines.push({ key: item, text: item, attrs: {} })
      continue
    }
    const text = claimText(item.claim)
    if (text !== null) lines.push({ key: item.claim, text, attrs: claimAttrs(item.claim) })
  }
  return lines
}
