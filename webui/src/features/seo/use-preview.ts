import { useEffect, useRef, useState } from 'react'
import { errorMessage } from '../../lib/api-client'
import { previewHtml } from './articles'

/** How long typing must pause before the preview asks the server again. */
export const PREVIEW_DELAY_MS = 400

interface Settled {
  /** The body this answer is for. */
  content: string
  html: string
  error: string | null
}

export interface Preview {
  /** The sanitised body of the last answer (what is shown). */
  html: string
  /** Why the last preview could not be made. */
  error: string | null
  /** The shown preview is older than the body as typed. */
  stale: boolean
}

/**
 * The body as it will be saved and shown, sanitised by the server
 * (`POST /api/admin/articles/preview`), asked for once typing pauses; a late answer for an
 * older body never replaces a newer one. `saved` is the article's stored body (sanitised when
 * it was saved), shown at once.
 */
export function usePreview(content: string, saved = '', delayMs = PREVIEW_DELAY_MS): Preview {
  // A saved body was sanitised on save: it is its own preview until it changes.
  const [settled, setSettled] = useState<Settled>({ content: saved, html: saved, error: null })
  const latest = useRef(0)

  useEffect(() => {
    if (content === '' || content === saved) return
    const mine = ++latest.current
    const timer = setTimeout(() => {
      previewHtml(content).then(
        (html) => {
          if (latest.current === mine) setSettled({ content, html, error: null })
        },
        (err: unknown) => {
          if (latest.current === mine) setSettled((s) => ({ ...s, content, error: errorMessage(err) }))
        },
      )
    }, delayMs)
    return () => clearTimeout(timer)
  }, [content, saved, delayMs])

  if (content === '') return { html: '', error: null, stale: false }
  if (content === saved) return { html: saved, error: null, stale: false }
  return { html: settled.html, error: settled.error, stale: settled.content !== content }
}
