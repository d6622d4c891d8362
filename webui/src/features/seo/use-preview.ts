import { useEffect, useRef, useState } from 'react'
import { errorMessage } from '../../lib/api-client'
import { previewHtml, type BodyFormat } from './articles'

/** How long typing must pause before the preview asks the server again. */
export const PREVIEW_DELAY_MS = 400

interface Settled {
  /** The body and format this answer is for. */
  key: string
  html: string
  error: string | null
}

export interface Preview {
  /** The rendered, sanitised body of the last answer (what is shown). */
  html: string
  /** Why the last preview could not be made. */
  error: string | null
  /** The shown preview is older than the body as typed. */
  stale: boolean
}

/** What the article holds as saved: its body as written, its format and its rendered HTML. */
export interface SavedBody {
  body: string
  format: BodyFormat
  html: string
}

const keyOf = (format: BodyFormat, body: string) => `${format}\n${body}`

/**
 * The body as it will be saved and shown: Markdown rendered, then sanitised, by the server
 * (`POST /api/admin/blog/preview`, the function saving uses), asked for once typing pauses; a
 * late answer for an older body never replaces a newer one. `saved` is the article as stored
 * (rendered when it was saved): shown at once while the body is unchanged.
 */
export function usePreview(body: string, format: BodyFormat, saved?: SavedBody, delayMs = PREVIEW_DELAY_MS): Preview {
  const savedKey = saved ? keyOf(saved.format, saved.body) : null
  const key = keyOf(format, body)
  const [settled, setSettled] = useState<Settled>({ key: savedKey ?? '', html: saved?.html ?? '', error: null })
  const latest = useRef(0)

  useEffect(() => {
    if (body === '' || key === savedKey) return
    const mine = ++latest.current
    const timer = setTimeout(() => {
      previewHtml(format, body).then(
        (html) => {
          if (latest.current === mine) setSettled({ key, html, error: null })
        },
        (err: unknown) => {
          if (latest.current === mine) setSettled((s) => ({ ...s, key, error: errorMessage(err) }))
        },
      )
    }, delayMs)
    return () => clearTimeout(timer)
  }, [body, format, key, savedKey, delayMs])

  if (body === '') return { html: '', error: null, stale: false }
  if (saved && key === savedKey) return { html: saved.html, error: null, stale: false }
  return { html: settled.html, error: settled.error, stale: settled.key !== key }
}
