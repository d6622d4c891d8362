import { useCallback, useEffect, useRef, useState } from 'react'
import { useSearchParams } from 'react-router-dom'
import { LoadState } from '../../../components/dashboard/LoadState'
import { PlusIcon } from '../../../components/icons/PlusIcon'
import { ArticleEditor } from '../ArticleEditor'
import { ArticlePageSettings } from '../../blog'
import { ArticleGenerator } from '../ArticleGenerator'
import { ArticleFilters, ArticleTable, type Pending } from '../ArticleTable'
import { Button } from '../../../components/ui/Button'
import { Card } from '../../../components/ui/Card'
import { ErrorBox } from '../../../components/ui/ErrorBox'
import { Notice } from '../../../components/ui/Notice'
import { errorMessage } from '../../../lib/api-client'
import {
  ACTION_RESULT,
  EMPTY_TITLE,
  STATUS_LABELS,
  aiStatus,
  changeStatus,
  emptyText,
  filterArticles,
  listArticles,
  replaceArticle,
  type Article,
  type StatusAction,
  type StatusFilter,
} from '../articles'
import { useApiData } from '../../../lib/use-api-data'
// Loaded with this page only (admins).
import '../seo.css'

/** `?edit=12` opens the editor on article 12, `?new` on a new one. */
function editorTarget(params: URLSearchParams): number | 'new' | null {
  if (params.has('new')) return 'new'
  const raw = params.get('edit')
  if (raw === null || !/^[1-9]\d{0,15}$/.test(raw)) return null
  return Number(raw)
}

interface Patched {
  /** The loaded list these changes apply to (a reload drops them). */
  from: Article[]
  articles: Article[]
}

/** The article manager (marketing spec §2 'Article manager'; admins only, on the server too). */
export default function SeoArticlesPage() {
  const [params, setParams] = useSearchParams()
  const target = editorTarget(params)
  const list = useApiData('articles', listArticles)
  const ai = useApiData('ai', aiStatus)
  const [search, setSearch] = useState('')
  const [status, setStatus] = useState<StatusFilter>('')
  const [patched, setPatched] = useState<Patched | null>(null)
  const [pending, setPending] = useState<Pending | null>(null)
  const [error, setError] = useState<{ message: string; attempt: number } | null>(null)
  const [notice, setNotice] = useState<string | null>(null)

  // Back from the editor, the focus returns to the page's heading.
  const headingRef = useRef<HTMLHeadingElement>(null)
  const editing = target !== null
  const wasEditing = useRef(editing)
  useEffect(() => {
    if (wasEditing.current && !editing) headingRef.current?.focus()
    wasEditing.current = editing
  }, [editing])

  const articles = list.data !== null && patched?.from === list.data ? patched.articles : list.data
  const { reload } = list

  const refresh = useCallback(() => {
    setError(null)
    setNotice(null)
    reload()
  }, [reload])

  const openEditor = (id: number | 'new') => {
    setNotice(null)
    setParams(id === 'new' ? { new: '' } : { edit: String(id) })
  }
  const closeEditor = () => setParams({})

  const onGenerated = useCallback(() => {
    setNotice(null)
    reload()
  }, [reload])

  const act = async (article: Article, action: StatusAction) => {
    if (list.data === null || articles === null) return
    const from = list.data
    setError(null)
    setNotice(null)
    setPending({ id: article.id, action })
    try {
      const changed = await changeStatus(article.id, action)
      setPatched((p) => ({ from, articles: replaceArticle(p?.from === from ? p.articles : from, changed) }))
      setNotice(`“${changed.title}” is now ${STATUS_LABELS[ACTION_RESULT[action]].toLowerCase()}.`)
    } catch (err) {
      setError((e) => ({ message: errorMessage(err), attempt: (e?.attempt ?? 0) + 1 }))
    } finally {
      setPending(null)
    }
  }

  // The list stays mounted (hidden) while the editor is open: a generation under way, its
  // ideas, the search and the filter are all still there on the way back.
  return (
    <div className="dash-page seo-page">
      {target !== null && (
        <ArticleEditor
          key={String(target)}
          articleId={target === 'new' ? null : target}
          onCancel={closeEditor}
          onSaved={(saved, created) => {
            setError(null)
            setNotice(created ? `“${saved.title}” was saved as a draft.` : `“${saved.title}” was saved.`)
            reload()
            closeEditor()
          }}
        />
      )}
      {typeof target === 'number' && <ArticlePageSettings key={`page-${target}`} articleId={target} />}
      <div className="seo-list" hidden={target !== null}>
        <div className="seo-head">
          <header className="dash-page__header">
            <h1 ref={headingRef} tabIndex={-1} className="dash-page__title seo-page__title">
              SEO Articles
            </h1>
            <p className="dash-page__text">Generate, edit, publish and archive blog articles.</p>
          </header>
          <div className="seo-head__actions">
            <Button variant="outline" onClick={refresh} busy={list.loading}>
              Refresh
            </Button>
            <Button onClick={() => openEditor('new')}>
              <PlusIcon size={18} />
              New Article
            </Button>
          </div>
        </div>

        <ArticleGenerator ai={ai} onSaved={onGenerated} onEdit={(id) => openEditor(id)} />

        <section className="dash-section seo-articles" aria-labelledby="seo-articles-title">
          <h2 id="seo-articles-title" className="seo-articles__title">
            Articles
          </h2>
          <ArticleFilters search={search} status={status} onSearch={setSearch} onStatus={setStatus} />
          {error && (
            <ErrorBox key={error.attempt} title="Error" className="seo-articles__error">
              {error.message}
            </ErrorBox>
          )}
          {notice && <Notice className="seo-articles__notice">{notice}</Notice>}
          <LoadState state={list} loading="Loading the articles" failed="We could not load the articles.">
            {() => {
              const all = articles ?? []
              const shown = filterArticles(all, search, status)
              return shown.length === 0 ? (
                <Card className="dash-card empty-state">
                  <p className="empty-state__title">{EMPTY_TITLE}</p>
                  <p className="empty-state__text">{emptyText(all.length)}</p>
                </Card>
              ) : (
                <>
                  <p className="seo-articles__count" aria-live="polite">
                    {shown.length === all.length
                      ? `${all.length} ${all.length === 1 ? 'article' : 'articles'}`
                      : `${shown.length} of ${all.length} articles`}
                  </p>
                  <ArticleTable
                    articles={shown}
                    pending={pending}
                    onAction={(article, action) => void act(article, action)}
                    onEdit={(article) => openEditor(article.id)}
                  />
                </>
              )
            }}
          </LoadState>
        </section>
      </div>
    </div>
  )
}
