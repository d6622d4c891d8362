/**
 * The article editor's "Article page" panel (features/seo/pages/SeoArticles.tsx shows it under
 * the editor of a saved article): the cover image (upload, remove, alt text), the article's
 * language and the call to action at its end. The cover is stored as soon as it is chosen; the
 * rest with "Save page settings" (PATCH /api/admin/blog/articles/{id}).
 */
import { useEffect, useId, useState, type FormEvent } from 'react'
import { Button } from '../../components/ui/Button'
import { ErrorBox } from '../../components/ui/ErrorBox'
import { Field } from '../../components/ui/Field'
import { Notice } from '../../components/ui/Notice'
import { api, errorMessage } from '../../lib/api-client'
import type { ResponseBody } from '../../lib/api-client'
import type { CallToAction, Language } from './blog'

type AdminArticle = ResponseBody<'/api/admin/articles/{article_id}', 'get'>

/** The server's limit (src/agency/modules/blog/service/covers.py MAX_BYTES). */
export const COVER_MAX_BYTES = 8_000_000
export const MSG_COVER_TOO_BIG = 'The image is larger than 8 MB. Please upload a smaller image.'
const ACCEPT = 'image/jpeg,image/png,image/webp'

async function sendCover(articleId: number, file: File | null): Promise<AdminArticle> {
  const url = `/api/admin/blog/articles/${articleId}/cover`
  const init: RequestInit = { method: file ? 'POST' : 'DELETE', credentials: 'same-origin', headers: { 'X-Agency-Request': '1', Accept: 'application/json' } }
  if (file) {
    const body = new FormData()
    body.append('file', file)
    init.body = body
  }
  const response = await fetch(url, init)
  const data: unknown = await response.json().catch(() => null)
  if (!response.ok) {
    const message = (data as { error?: { message?: string } } | null)?.error?.message
    throw new Error(response.status === 413 ? MSG_COVER_TOO_BIG : message || 'The image could not be saved. Please try again.')
  }
  return data as AdminArticle
}

export function ArticlePageSettings({ articleId }: { articleId: number }) {
  const [article, setArticle] = useState<AdminArticle | null>(null)
  const [language, setLanguage] = useState<Language>('en')
  const [cta, setCta] = useState<CallToAction>('speed_test')
  const [alt, setAlt] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const fileId = useId()

  function show(loaded: AdminArticle) {
    setArticle(loaded)
    setLanguage(loaded.language ?? 'en')
    setCta(loaded.call_to_action ?? 'speed_test')
    setAlt(loaded.cover?.alt ?? '')
  }

  useEffect(() => {
    let live = true
    api.get('/api/admin/articles/{article_id}', { params: { article_id: articleId } }).then(
      (loaded) => live && show(loaded),
      (err: unknown) => live && setError(errorMessage(err)),
    )
    return () => {
      live = false
    }
  }, [articleId])

  async function cover(file: File | null) {
    setError(null)
    setNotice(null)
    if (file && file.size > COVER_MAX_BYTES) {
      setError(MSG_COVER_TOO_BIG)
      return
    }
    setBusy(true)
    try {
      const saved = await sendCover(articleId, file)
      setArticle(saved)
      setNotice(file ? 'The cover image was saved.' : 'The cover image was removed.')
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    } finally {
      setBusy(false)
    }
  }

  async function save(event: FormEvent) {
    event.preventDefault()
    setError(null)
    setNotice(null)
    setBusy(true)
    try {
      const saved = await api.patch(
        '/api/admin/blog/articles/{article_id}',
        { language, call_to_action: cta, cover_alt: alt },
        { params: { article_id: articleId } },
      )
      show(saved)
      setNotice('The page settings were saved.')
    } catch (err) {
      setError(errorMessage(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="blog-page-settings" aria-label="Article page" onSubmit={save}>
      <h2 className="blog-page-settings__title">Article page</h2>
      {error && <ErrorBox>{error}</ErrorBox>}
      {notice && <Notice>{notice}</Notice>}
      <div className="blog-page-settings__cover">
        {article?.cover ? (
          <img src={article.cover.url} width={article.cover.width} height={article.cover.height} alt="" className="blog-page-settings__preview" />
        ) : (
          <p className="blog-page-settings__none">No cover image yet.</p>
        )}
        <div className="blog-page-settings__cover-actions">
          <label htmlFor={fileId} className="field__label">
            Cover image (JPEG, PNG or WebP, up to 8 MB, at least 200 × 200 px)
          </label>
          <input
            id={fileId}
            type="file"
            accept={ACCEPT}
            disabled={busy || article === null}
            onChange={(event) => {
              const file = event.currentTarget.files?.[0] ?? null
              event.currentTarget.value = ''
              if (file) void cover(file)
            }}
          />
          {article?.cover && (
            <Button type="button" variant="outline" size="sm" disabled={busy} onClick={() => void cover(null)}>
              Remove cover image
            </Button>
          )}
        </div>
      </div>
      <Field
        label="Cover image description (alt text)"
        hint="What the image shows, for people who cannot see it."
        value={alt}
        maxLength={200}
        onChange={(event) => setAlt(event.currentTarget.value)}
      />
      <div className="blog-page-settings__row">
        <label className="field">
          <span className="field__label">Language</span>
          <select className="input" value={language} onChange={(event) => setLanguage(event.currentTarget.value as Language)}>
            <option value="en">English</option>
            <option value="de">German</option>
          </select>
        </label>
        <label className="field">
          <span className="field__label">Call to action at the end</span>
          <select className="input" value={cta} onChange={(event) => setCta(event.currentTarget.value as CallToAction)}>
            <option value="speed_test">Free speed test (/speed-test)</option>
            <option value="start">Start a project (/start)</option>
          </select>
        </label>
      </div>
      <Button type="submit" busy={busy} disabled={article === null}>
        Save page settings
      </Button>
    </form>
  )
}
