/**
 * The blog's list and article markup. The server writes exactly these elements into the first
 * HTML response (src/agency/modules/blog/service/pages.py), so hydration matches; both sides
 * are checked against test/fixtures/blog-render-cases.json. Keep the two in step: no
 * whitespace between elements, no two text nodes side by side (React would add a comment).
 */
import type { ReactNode } from 'react'
import { BLOG_REGION_MARKER, displayDate, isoDate, pageHref, type BlogPage, type PublishedArticle } from './blog'
import { Link } from '../../lib/router'

export const EMPTY_TEXT = 'No articles yet. Check back soon.'
export const BACK_TEXT = 'Back to all articles'
export const NOT_FOUND_TITLE = 'Article not found'
export const NOT_FOUND_TEXT = 'This article does not exist or is no longer published.'

/** Where the list or the article goes. At build time it holds the marker the server fills. */
export function BlogRegion({ children }: { children?: ReactNode }) {
  if (import.meta.env.SSR) {
    return <div className="blog-region" dangerouslySetInnerHTML={{ __html: BLOG_REGION_MARKER }} />
  }
  return <div className="blog-region">{children}</div>
}

function Published({ at }: { at: string }) {
  return <time dateTime={isoDate(at)}>{displayDate(at)}</time>
}

export function BlogList({ data }: { data: BlogPage }) {
  if (data.articles.length === 0) return <p className="blog-empty">{EMPTY_TEXT}</p>
  return (
    <>
      <ul className="blog-grid">
        {data.articles.map((article) => (
          <li className="blog-card" key={article.id}>
            <article className="blog-card__inner">
              <h2 className="blog-card__title">
                <Link to={`/blog/${article.slug}`}>{article.title}</Link>
              </h2>
              <p className="blog-card__date">
                <Published at={article.published_at} />
              </p>
              <p className="blog-card__text">{article.meta_description}</p>
              <Link className="blog-card__more" to={`/blog/${article.slug}`}>
                Read More<span className="visually-hidden">{`: ${article.title}`}</span>
              </Link>
            </article>
          </li>
        ))}
      </ul>
      {data.pages > 1 && (
        <nav className="blog-pages" aria-label="Blog pages">
          {data.page > 1 && (
            <Link className="blog-pages__prev" to={pageHref(data.page - 1)} rel="prev">
              Newer articles
            </Link>
          )}
          <span className="blog-pages__where">{`Page ${data.page} of ${data.pages}`}</span>
          {data.page < data.pages && (
            <Link className="blog-pages__next" to={pageHref(data.page + 1)} rel="next">
              Older articles
            </Link>
          )}
        </nav>
      )}
    </>
  )
}

export function ArticleView({ article }: { article: PublishedArticle }) {
  return (
    <article className="blog-article">
      <h1 className="blog-article__title">{article.title}</h1>
      <p className="blog-article__date">
        Published <Published at={article.published_at} />
      </p>
      {/* Sanitised on the server, on save and again on render (allow-list). */}
      <div className="prose blog-article__body" dangerouslySetInnerHTML={{ __html: article.content }} />
      {article.keywords.length > 0 && (
        <ul className="blog-article__keywords" aria-label="Keywords">
          {article.keywords.map((keyword) => (
            <li key={keyword}>{keyword}</li>
          ))}
        </ul>
      )}
      <p className="blog-article__back">
        <Link to="/blog">{BACK_TEXT}</Link>
      </p>
    </article>
  )
}

export function ArticleMissing() {
  return (
    <div className="blog-missing">
      <h1 className="blog-article__title">{NOT_FOUND_TITLE}</h1>
      <p>{NOT_FOUND_TEXT}</p>
      <p className="blog-article__back">
        <Link to="/blog">{BACK_TEXT}</Link>
      </p>
    </div>
  )
}
