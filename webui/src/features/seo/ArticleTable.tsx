import { useEffect, useId, useRef, useState } from 'react'
import {
  ACTION_LABELS,
  STATUS_FILTERS,
  STATUS_LABELS,
  actionsFor,
  formatDate,
  type Article,
  type ArticleStatus,
  type StatusAction,
  type StatusFilter,
} from './articles'
import { SearchIcon } from '../../components/icons/SearchIcon'
import { Badge, type BadgeTone } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { ConfirmDialog } from './ConfirmDialog'

const STATUS_TONES: Record<ArticleStatus, BadgeTone> = {
  draft: 'yellow',
  published: 'green',
  archived: 'grey',
}

export function StatusBadge({ status }: { status: ArticleStatus }) {
  return <Badge tone={STATUS_TONES[status]}>{STATUS_LABELS[status]}</Badge>
}

export interface ArticleFiltersProps {
  search: string
  status: StatusFilter
  onSearch: (search: string) => void
  onStatus: (status: StatusFilter) => void
}

/** The search box (title or slug) and the status filter. */
export function ArticleFilters({ search, status, onSearch, onStatus }: ArticleFiltersProps) {
  const searchId = useId()
  const statusId = useId()
  return (
    <div className="seo-filters" role="search">
      <div className="field seo-filters__search">
        <label className="field__label" htmlFor={searchId}>
          Search articles
        </label>
        <div className="field__control seo-search">
          <SearchIcon size={18} className="seo-search__icon" />
          <input
            id={searchId}
            type="search"
            className="input seo-search__input"
            placeholder="Search by title or slug"
            value={search}
            onChange={(e) => onSearch(e.target.value)}
          />
        </div>
      </div>
      <div className="field seo-filters__status">
        <label className="field__label" htmlFor={statusId}>
          Status
        </label>
        <select id={statusId} className="input" value={status} onChange={(e) => onStatus(e.target.value as StatusFilter)}>
          {STATUS_FILTERS.map((f) => (
            <option key={f.value} value={f.value}>
              {f.label}
            </option>
          ))}
        </select>
      </div>
    </div>
  )
}

export interface Pending {
  id: number
  action: StatusAction
}

export interface ArticleTableProps {
  articles: readonly Article[]
  /** The status change under way, if any. */
  pending: Pending | null
  onAction: (article: Article, action: StatusAction) => void
  onEdit: (article: Article) => void
}

/** What Archive asks before it archives. */
export function archiveQuestion(article: Pick<Article, 'title' | 'status'>): string {
  return article.status === 'published'
    ? `“${article.title}” leaves the blog: its page and its place in the list and the feed go. You can publish it again later.`
    : `“${article.title}” moves to the archive. You can move it back to draft or publish it later.`
}

/** Columns Article (title, meta description, slug), Status, Date (created) and Actions. */
export function ArticleTable({ articles, pending, onAction, onEdit }: ArticleTableProps) {
  // Archive asks first; the button that asked gets the focus back when the dialog closes.
  const [confirming, setConfirming] = useState<{ article: Article; opener: HTMLButtonElement } | null>(null)
  // After a status change the focus goes back into its row (its first button): the button
  // pressed was disabled meanwhile and may be gone (Publish on a published article), and a
  // keyboard user should not be sent back to the top of the page.
  const focusAfter = useRef<HTMLTableRowElement | null>(null)
  useEffect(() => {
    const row = focusAfter.current
    if (pending !== null || row === null) return
    focusAfter.current = null
    if (row.isConnected) row.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus()
  }, [pending])

  return (
    <div className="table-wrap card">
      <table className="data-table seo-table">
        <thead>
          <tr>
            <th scope="col">Article</th>
            <th scope="col">Status</th>
            <th scope="col">Date</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {articles.map((article) => (
            <tr key={article.id}>
              <td data-label="Article" className="seo-table__article">
                <span className="seo-table__title">{article.title}</span>
                {article.meta_description && <span className="seo-table__meta">{article.meta_description}</span>}
                <span className="seo-table__slug">
                  {article.status === 'published' ? (
                    <a href={`/blog/${encodeURIComponent(article.slug)}`}>/blog/{article.slug}</a>
                  ) : (
                    <code>/blog/{article.slug}</code>
                  )}
                </span>
              </td>
              <td data-label="Status">
                <StatusBadge status={article.status} />
              </td>
              <td data-label="Date">
                <time dateTime={article.created_at}>{formatDate(article.created_at)}</time>
              </td>
              <td data-label="Actions">
                <div className="seo-table__actions">
                  <Button size="sm" variant="outline" disabled={pending !== null} onClick={() => onEdit(article)}>
                    Edit<span className="visually-hidden"> “{article.title}”</span>
                  </Button>
                  {actionsFor(article.status).map((action) => (
                    <Button
                      key={action}
                      size="sm"
                      variant={action === 'publish' ? 'primary' : 'outline'}
                      disabled={pending !== null}
                      busy={pending?.id === article.id && pending.action === action}
                      aria-haspopup={action === 'archive' ? 'dialog' : undefined}
                      onClick={(e) => {
                        if (action === 'archive') {
                          setConfirming({ article, opener: e.currentTarget })
                          return
                        }
                        focusAfter.current = e.currentTarget.closest('tr')
                        onAction(article, action)
                      }}
                    >
                      {ACTION_LABELS[action]}
                      <span className="visually-hidden"> “{article.title}”</span>
                    </Button>
                  ))}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {confirming && (
        <ConfirmDialog
          title="Archive this article?"
          confirm="Archive"
          onCancel={() => {
            confirming.opener.focus()
            setConfirming(null)
          }}
          onConfirm={() => {
            focusAfter.current = confirming.opener.closest('tr')
            confirming.opener.focus()
            setConfirming(null)
            onAction(confirming.article, 'archive')
          }}
        >
          <p>{archiveQuestion(confirming.article)}</p>
        </ConfirmDialog>
      )}
    </div>
  )
}
