import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { concerns, formValues, problemFromError, type FormProblem } from '../../lib/forms'
import {
  CONTENT_MAX,
  EMPTY_FORM,
  FIELD_OF,
  FORM_FIELDS,
  KEYWORDS_MAX,
  META_DESCRIPTION_MAX,
  SLUG_MAX,
  SOURCE_MAX,
  TITLE_MAX,
  articleInput,
  checkForm,
  createArticle,
  formFor,
  getArticle,
  metaCount,
  previewHtml,
  readForm,
  slugFollowsTitle,
  slugify,
  updateArticle,
  type Article,
  type ArticleForm,
  type BodyFormat,
  type FormField,
} from './articles'
import { errorMessage } from '../../lib/api-client'
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

/** A problem of the editor from what saving threw: the server's `fields` as the editor's fields. */
function editorProblem(err: unknown): FormProblem {
  const found = problemFromError(err)
  const fields: Record<string, string> = {}
  for (const [name, message] of Object.entries(found.fields)) {
    const field = FIELD_OF[name.split('.')[0] ?? '']
    if (field && !fields[field]) fields[field] = message
  }
  return { ...found, fields }
}

/** `current` without its message for the field `name` (the red box stays). */
function withoutField(current: FormProblem | null, name: string): FormProblem | null {
  if (!current || !concerns(current, name)) return current
  const fields = { ...current.fields }
  delete fields[name]
  return { ...current, fields }
}

interface EditorFormProps {
  article: Article | null
  onSaved: (article: Article, created: boolean) => void
  onCancel: () => void
}

export function EditorForm({ article, onSaved, onCancel }: EditorFormProps) {
  // The inputs hold the article; `shown` is what the preview, the counter and the slug hint
  // show of it, read from the form as it is typed in.
  const [initial] = useState<ArticleForm>(() => (article ? formFor(article) : EMPTY_FORM))
  const [shown, setShown] = useState<ArticleForm>(initial)
  const [formProblem, setFormProblem] = useState<FormProblem | null>(null)
  const [attempt, setAttempt] = useState(0)
  const [saving, setSaving] = useState(false)
  const heading = useRef<HTMLHeadingElement>(null)
  const errorId = useId()
  const metaId = useId()
  const contentId = useId()
  const [format, setFormat] = useState<BodyFormat>(initial.format)
  const [switching, setSwitching] = useState(false)
  const contentRef = useRef<HTMLTextAreaElement>(null)
  const slugRef = useRef<HTMLInputElement>(null)
  // While a draft's slug is what its title gives, it follows the title; typing in it stops that.
  const [following, setFollowing] = useState(() => slugFollowsTitle(article?.status ?? null, initial.title, initial.slug))
  const saved = article ? { body: initial.content, format: initial.format, html: article.content } : undefined
  const preview = usePreview(shown.content, format, saved)
  const fieldError = (field: FormField) => formProblem?.fields[field]

  // Opening the editor takes the focus to its heading (keyboard and screen-reader users land here).
  useEffect(() => {
    heading.current?.focus()
  }, [])

  const onInput = (event: FormEvent<HTMLFormElement>) => {
    const name = (event.target as HTMLInputElement | HTMLTextAreaElement).name
    if (name === 'slug') setFollowing(false)
    if (name === 'title' && following && slugRef.current) {
      slugRef.current.value = slugify((event.target as HTMLInputElement).value)
    }
    setShown(readForm(formValues(event.currentTarget, FORM_FIELDS)))
    // Typing in a field takes its own message away.
    setFormProblem((current) => withoutField(current, name))
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = readForm(formValues(event.currentTarget, FORM_FIELDS))
    setAttempt((n) => n + 1)
    const checked = checkForm(form)
    if (checked) {
      setFormProblem(checked)
      const field = FORM_FIELDS.find((name) => concerns(checked, name))
      if (field) document.getElementById(`${contentId}-${field}`)?.focus()
      return
    }
    if (switching) return
    setFormProblem(null)
    setSaving(true)
    try {
      const input = articleInput(form)
      const saved = article ? await updateArticle(article.id, input) : await createArticle(input)
      onSaved(saved, article === null)
    } catch (err) {
      setSaving(false)
      setFormProblem(editorProblem(err))
    }
  }

  /**
   * Markdown to HTML: the body becomes its rendering (what the preview shows), to edit as HTML.
   * HTML to Markdown: the text stays as it is (Markdown keeps HTML as HTML).
   */
  const switchFormat = async (next: BodyFormat) => {
    const textarea = contentRef.current
    if (next === format || textarea === null) return
    setFormProblem((current) => withoutField(current, 'content'))
    if (next === 'html' && textarea.value.trim() !== '') {
      setSwitching(true)
      try {
        textarea.value = await previewHtml('markdown', textarea.value)
      } catch (err) {
        setSwitching(false)
        setFormProblem({ message: `The body could not be turned into HTML: ${errorMessage(err)}`, fields: {} })
        return
      }
      setSwitching(false)
    }
    setFormat(next)
    setShown((s) => ({ ...s, content: textarea.value, format: next }))
  }

  const count = metaCount(shown.metaDescription)
  const fieldId = (field: FormField) => `${contentId}-${field}`
  const suggested = slugify(shown.title)
  const slugHint =
    article?.status === 'published'
      ? 'Changing the slug of a published article keeps its old address working: it redirects here.'
      : following && shown.slug.trim() !== ''
        ? `Follows the title until you change it. The article’s address: /blog/${shown.slug.trim()}`
        : shown.slug.trim() !== ''
        ? `The article’s address: /blog/${shown.slug.trim()}`
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
      <form className="seo-editor__form" onSubmit={(e) => void submit(e)} onInput={onInput} noValidate>
        {formProblem && (
          <ErrorBox key={attempt} id={errorId} title="Error">
            {formProblem.message}
          </ErrorBox>
        )}
        <Field
          id={fieldId('title')}
          label="Title"
          required
          name="title"
          defaultValue={initial.title}
          maxLength={TITLE_MAX}
          error={fieldError('title')}
        />
        <Field
          id={fieldId('slug')}
          label="Slug"
          name="slug"
          ref={slugRef}
          defaultValue={initial.slug}
          maxLength={SLUG_MAX}
          placeholder={suggested || undefined}
          hint={slugHint}
          error={fieldError('slug')}
          spellCheck={false}
          autoCapitalize="off"
        />
        <div className={fieldError('metaDescription') ? 'field field--invalid' : 'field'}>
          <label className="field__label" htmlFor={fieldId('metaDescription')}>
            Meta description
          </label>
          <textarea
            id={fieldId('metaDescription')}
            className="input seo-editor__meta"
            rows={3}
            name="metaDescription"
            defaultValue={initial.metaDescription}
            maxLength={META_DESCRIPTION_MAX}
            aria-invalid={fieldError('metaDescription') ? true : undefined}
            aria-describedby={`${metaId}-count${fieldError('metaDescription') ? ` ${metaId}-error` : ''}`}
          />
          <p id={`${metaId}-count`} className={count.over ? 'field__hint seo-count seo-count--over' : 'field__hint seo-count'}>
            {count.text}
            <span className="visually-hidden"> (search engines show about 160)</span>
          </p>
          {fieldError('metaDescription') && (
            <p id={`${metaId}-error`} className="field__error">
              {fieldError('metaDescription')}
            </p>
          )}
        </div>
        <Field
          id={fieldId('keywords')}
          label="Keywords"
          name="keywords"
          defaultValue={initial.keywords}
          hint={`Separate keywords with commas (at most ${KEYWORDS_MAX}).`}
          error={fieldError('keywords')}
        />
        <fieldset className="seo-format" aria-describedby={`${contentId}-format-hint`}>
          <legend className="field__label">Write the body in</legend>
          <div className="seo-format__options">
            {(['markdown', 'html'] as const).map((value) => (
              <label key={value} className="seo-format__option">
                <input
                  type="radio"
                  name="format"
                  value={value}
                  checked={format === value}
                  disabled={switching}
                  onChange={() => void switchFormat(value)}
                />
                {value === 'markdown' ? 'Markdown' : 'HTML'}
              </label>
            ))}
          </div>
          <p id={`${contentId}-format-hint`} className="field__hint">
            {format === 'markdown'
              ? 'Switching to HTML turns the Markdown into the HTML the preview shows.'
              : 'Switching to Markdown keeps the HTML as it is: Markdown may hold HTML.'}
            {switching && ' Turning the Markdown into HTML…'}
          </p>
        </fieldset>
        <div className="seo-editor__body">
          <div className={fieldError('content') ? 'field field--invalid' : 'field'}>
            <label className="field__label" htmlFor={fieldId('content')}>
              {format === 'markdown' ? 'Body (Markdown)' : 'Body (HTML)'}
            </label>
            <textarea
              id={fieldId('content')}
              ref={contentRef}
              className="input seo-editor__content"
              rows={12}
              spellCheck={format === 'markdown'}
              name="content"
              defaultValue={initial.content}
              maxLength={format === 'markdown' ? SOURCE_MAX : CONTENT_MAX}
              readOnly={switching}
              aria-invalid={fieldError('content') ? true : undefined}
              aria-describedby={`${contentId}-content-hint`}
            />
            <p id={`${contentId}-content-hint`} className="field__hint">
              {format === 'markdown'
                ? '## for a heading, **bold**, *italic*, - for a list, [text](https://…) for a link, | for a table. '
                : ''}
              Headings, paragraphs, lists, links, images and tables are kept; scripts, styles, forms and frames are
              removed when the article is saved.
            </p>
            {fieldError('content') && <p className="field__error">{fieldError('content')}</p>}
          </div>
          <div className="seo-preview">
            <p className="field__label seo-preview__label" id={`${contentId}-preview`}>
              Preview
              {preview.stale && <span className="seo-preview__state"> updating…</span>}
            </p>
            {preview.error && <p className="field__error">The preview could not be updated: {preview.error}</p>}
            {shown.content === '' ? (
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
          <Button type="submit" busy={saving} disabled={switching}>
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
