import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { ApiError, errorMessage } from '../../lib/api-client'
import {
  CONTENT_MAX,
  EMPTY_FORM,
  FIELD_OF,
  KEYWORDS_MAX,
  META_DESCRIPTION_MAX,
  SLUG_MAX,
  TITLE_MAX,
  articleInput,
  checkForm,
  createArticle,
  formFor,
  getArticle,
  metaCount,
  slugify,
  updateArticle,
  type Article,
  type ArticleForm,
  type FormField,
} from './articles'
import { useApiData } from '../../lib/use-api-data'
import { LoadState } from '../../components/dashboard/LoadState'
import { Button } from '../../components/ui/Button'
import { ErrorBox } from '../../components/ui/ErrorBox'
import { Field } from '../../components/ui/Field'
import { StatusBadge } from './ArticleTable'
import { usePreview } from './use-preview'

export interface ArticleEditorProps {
  /** The article to edit; null writes a new one (saved as a draft). */
  articleId: number | null
  /** Saved: `created` for a new article. */
  onSaved: (article: Article, created: boolean) => void
  onCancel: () => void
}

/** Edit (DECISIONS.md: Edit edits) or New Article: the article loaded first when it exists. */
export function ArticleEditor({ articleId, onSaved, onCancel }: ArticleEditorProps) {
  if (articleId === null) return <EditorForm article={null} onSaved={onSaved} onCancel={onCancel} />
  return <ExistingArticle articleId={articleId} onSaved={onSaved} onCancel={onCancel} />
}

function ExistingArticle({ articleId, onSaved, onCancel }: ArticleEditorProps & { articleId: number }) {
  const loaded = useApiData(`article:${articleId}`, () => getArticle(articleId))
  return (
    <LoadState state={loaded} loading="Loading the article" failed="We could not load the article.">
      {(article) => <EditorForm key={article.id} article={article} onSaved={onSaved} onCancel={onCancel} />}
    </LoadState>
  )
}

type FieldErrors = Partial<Record<FormField, string>>

/** The server's `fields` of a 400, as the editor's fields. */
function fieldErrors(err: unknown): FieldErrors {
  const out: FieldErrors = {}
  if (err instanceof ApiError && err.fields) {
    for (const [name, message] of Object.entries(err.fields)) {
      const field = FIELD_OF[name.split('.')[0] ?? '']
      if (field && !out[field]) out[field] = message
    }
  }
  return out
}

interface EditorFormProps {
  article: Article | null
  onSaved: (article: Article, created: boolean) => void
  onCancel: () => void
}

export function EditorForm({ article, onSaved, onCancel }: EditorFormProps) {
  const [form, setForm] = useState<ArticleForm>(() => (article ? formFor(article) : EMPTY_FORM))
  const [error, setError] = useState<string | null>(null)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [attempt, setAttempt] = useState(0)
  const [saving, setSaving] = useState(false)
  const heading = useRef<HTMLHeadingElement>(null)
  const errorId = useId()
  const metaId = useId()
  const contentId = useId()
  const preview = usePreview(form.content, article?.content)

  // Opening the editor takes the focus to its heading (keyboard and screen-reader users land here).
  useEffect(() => {
    heading.current?.focus()
  }, [])

  const set = (field: FormField) => (value: string) => {
    setForm((f) => ({ ...f, [field]: value }))
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }))
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setAttempt((n) => n + 1)
    const problem = checkForm(form)
    if (problem) {
      setError(problem.message)
      setErrors({ [problem.field]: problem.message })
      document.getElementById(`${contentId}-${problem.field}`)?.focus()
      return
    }
    setError(null)
    setErrors({})
    setSaving(true)
    try {
      const input = articleInput(form)
      const saved = article ? await updateArticle(article.id, input) : await createArticle(input)
      onSaved(saved, article === null)
    } catch (err) {
      setSaving(false)
      setError(errorMessage(err))
      setErrors(fieldErrors(err))
    }
  }

  const count = metaCount(form.metaDescription)
  const fieldId = (field: FormField) => `${contentId}-${field}`
  const suggested = slugify(form.title)
  const slugHint =
    article?.status === 'published'
      ? 'Changing the slug of a published article keeps its old address working: it redirects here.'
      : form.slug.trim() !== ''
        ? `The article’s address: /blog/${form.slug.trim()}`
        : suggested
          ? `Leave empty to use “${suggested}”.`
          : 'Leave empty to make it from the title.'

  return (
    <section className="seo-editor" aria-labelledby={`${contentId}-heading`}>
      <header className="seo-editor__header">
        <h1 id={`${contentId}-heading`} ref={heading} tabIndex={-1} className="dash-page__title seo-editor__title">
          {article ? 'Edit article' : 'New Article'}
        </h1>
        {article && <StatusBadge status={article.status} />}
      </header>
      <form className="seo-editor__form" onSubmit={(e) => void submit(e)} noValidate>
        {error && (
          <ErrorBox key={attempt} id={errorId} title="Error">
            {error}
          </ErrorBox>
        )}
        <Field
          id={fieldId('title')}
          label="Title"
          required
          value={form.title}
          maxLength={TITLE_MAX}
          error={errors.title}
          onChange={(e) => set('title')(e.target.value)}
        />
        <Field
          id={fieldId('slug')}
          label="Slug"
          value={form.slug}
          maxLength={SLUG_MAX}
          placeholder={suggested || undefined}
          hint={slugHint}
          error={errors.slug}
          spellCheck={false}
          autoCapitalize="off"
          onChange={(e) => set('slug')(e.target.value)}
        />
        <div className={errors.metaDescription ? 'field field--invalid' : 'field'}>
          <label className="field__label" htmlFor={fieldId('metaDescription')}>
            Meta description
          </label>
          <textarea
            id={fieldId('metaDescription')}
            className="input seo-editor__meta"
            rows={3}
            value={form.metaDescription}
            maxLength={META_DESCRIPTION_MAX}
            aria-invalid={errors.metaDescription ? true : undefined}
            aria-describedby={`${metaId}-count${errors.metaDescription ? ` ${metaId}-error` : ''}`}
            onChange={(e) => set('metaDescription')(e.target.value)}
          />
          <p id={`${metaId}-count`} className={count.over ? 'field__hint seo-count seo-count--over' : 'field__hint seo-count'}>
            {count.text}
            <span className="visually-hidden"> (search engines show about 160)</span>
          </p>
          {errors.metaDescription && (
            <p id={`${metaId}-error`} className="field__error">
              {errors.metaDescription}
            </p>
          )}
        </div>
        <Field
          id={fieldId('keywords')}
          label="Keywords"
          value={form.keywords}
          hint={`Separate keywords with commas (at most ${KEYWORDS_MAX}).`}
          error={errors.keywords}
          onChange={(e) => set('keywords')(e.target.value)}
        />
        <div className="seo-editor__body">
          <div className={errors.content ? 'field field--invalid' : 'field'}>
            <label className="field__label" htmlFor={fieldId('content')}>
              Body (HTML)
            </label>
            <textarea
              id={fieldId('content')}
              className="input seo-editor__content"
              rows={12}
              spellCheck={false}
              value={form.content}
              maxLength={CONTENT_MAX}
              aria-invalid={errors.content ? true : undefined}
              aria-describedby={`${contentId}-content-hint`}
              onChange={(e) => set('content')(e.target.value)}
            />
            <p id={`${contentId}-content-hint`} className="field__hint">
              Headings, paragraphs, lists, links, images and tables are kept; scripts, styles, forms and frames are
              removed when the article is saved.
            </p>
            {errors.content && <p className="field__error">{errors.content}</p>}
          </div>
          <div className="seo-preview">
            <p className="field__label seo-preview__label" id={`${contentId}-preview`}>
              Preview
              {preview.stale && <span className="seo-preview__state"> updating…</span>}
            </p>
            {preview.error && <p className="field__error">The preview could not be updated: {preview.error}</p>}
            {form.content === '' ? (
              <p className="seo-preview__empty">The body appears here as readers will see it.</p>
            ) : (
              <div
                className="prose seo-preview__body"
                role="region"
                aria-labelledby={`${contentId}-preview`}
                // Sanitised by the server (the same allow-list as on save and on the blog).
                dangerouslySetInnerHTML={{ __html: preview.html }}
              />
            )}
          </div>
        </div>
        <div className="seo-editor__actions">
          <Button type="submit" busy={saving}>
            {article ? 'Save changes' : 'Save draft'}
          </Button>
          <Button variant="outline" onClick={onCancel} disabled={saving}>
            Cancel
          </Button>
        </div>
      </form>
    </section>
  )
}
