/**
 * The blog's list and article markup. The server writes exactly these elements into the first
 * HTML response (src/agency/modules/blog/service/pages.py), so hydration matches; both sides
 * are checked against test/fixtures/blog-render-cases.json. Keep the two in step: no
 * whitespace between elements, no two text nodes side by side (React would add a comment).
 */
import type { ReactNode } from 'react'
import {
  ARTICLE_COVER_SIZES,
  ARTICLE_TEXT,
  BLOG_REGION_MARKER,
  CARD_COVER_SIZES,
  CTA_HREF,
  displayDate,
  isoDate,
  pageHref,
  type BlogPage,
  type Cover,
  type Language,
  type PublishedArticle,
} from './blog'
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

function Published({ at, language = 'en' }: { at: string; language?: Language }) {
  return <time dateTime={isoDate(at)}>{displayDate(at, language)}</time>
}

/** The cover: every size in srcset, width and height set (no layout shift). In a card it is
 * decorative (the title follows) and loads lazily. */
function CoverImage({ cover, card }: { cover: Cover; card: boolean }) {
  if (card) {
    return (
      <img
        className="blog-card__cover"
        src={cover.url}
        srcSet={cover.srcset}
        sizes={CARD_COVER_SIZES}
        width={cover.width}
        height={cover.height}
        alt=""
        loading="lazy"
        decoding="async"
      />
    )
  }
  return (
    <img
      className="blog-article__cover"
      src={cover.url}
      srcSet={cover.srcset}
      sizes={ARTICLE_COVER_SIZES}
      width={cover.width}
      height={cover.height}
      alt={cover.alt}
    />
  )
}

export function BlogList({ data }: { data: BlogPage }) {
  if (data.articles.length === 0) return <p className="blog-empty">{EMPTY_TEXT}</p>
  return (
    <>
      <ul className="blog-grid">
        {data.articles.map((article) => (
          <li className="blog-card" key={article.id}>
            <article className="blog-card__inner">
              {article.cover && <CoverImage cover={article.cover} card />}
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
  const language = article.language ?? 'en'
  const text = ARTICLE_TEXT[language]
  const cta = article.call_to_action ?? 'speed_test'
  const related = article.related ?? []
  return (
    <article className="blog-article">
      <h1 className="blog-article__title">{article.title}</h1>
      <p className="blog-article__date">
        {`${text.published} `}
        <Published at={article.published_at} language={language} />
      </p>
      {article.cover && (
        <figure className="blog-article__figure">
          <CoverImage cover={article.cover} card={false} />
        </figure>
      )}
      {/* Sanitised on the server, on save and again on render (allow-list). */}
      <div className="prose blog-article__body" dangerouslySetInnerHTML={{ __html: article.content }} />
      {article.keywords.length > 0 && (
        <ul className="blog-article__keywords" aria-label={text.keywords}>
          {article.keywords.map((keyword) => (
            <li key={keyword}>{keyword}</li>
          ))}
        </ul>
      )}
      {article.author && (
        <section className="blog-author">
          <h2 className="blog-author__heading">{text.author}</h2>
          <p className="blog-author__name">{article.author.name}</p>
          {article.author.bio && <p className="blog-author__bio">{article.author.bio}</p>}
        </section>
      )}
      <section className="blog-cta">
        <h2 className="blog-cta__title">{text[`${cta}_title`]}</h2>
        <p className="blog-cta__text">{text[`${cta}_text`]}</p>
        <Link className="blog-cta__link" to={CTA_HREF[cta]}>
          {text[`${cta}_link`]}
        </Link>
      </section>
      {related.length > 0 && (
        <section className="blog-related">
          <h2 className="blog-related__heading">{text.related}</h2>
          <ul className="blog-related__list">
            {related.map((other) => (
              <li className="blog-related__item" key={other.id}>
                <Link className="blog-related__link" to={`/blog/${other.slug}`}>
                  {other.title}
                </Link>
                <p className="blog-related__text">{other.meta_description}</p>
              </li>
            ))}
          </ul>
        </section>
      )}
      <p className="blog-article__back">
        <Link to="/blog">{text.back}</Link>
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
