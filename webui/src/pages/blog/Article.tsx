import { useEffect, useState } from 'react'
import { useLocation, useNavigate } from 'react-router-dom'
import {
  ArticleMissing,
  ArticleView,
  BlogRegion,
  embeddedBlogData,
  setDocumentLanguage,
  showArticleHead,
  type PublishedArticle,
} from '../../features/blog'
import { Container } from '../../components/ui/Section'
import { Spinner } from '../../components/ui/Spinner'
import { api, ApiError } from '../../lib/api-client'
import { claimHead } from '../../lib/page-head'
import { useRouteParams } from '../../lib/router'
import { siteConfig } from '../../lib/site-config'

type State = { slug: string; article: PublishedArticle | null }

function initialState(slug: string): State | null {
  const data = embeddedBlogData()
  if (data?.kind === 'article') return { slug, article: data.article }
  if (data?.kind === 'missing') return { slug, article: null }
  return null
}

/** /blog/{slug}: a published article (title, date, body, keywords). The server puts it, with
 * its head tags, into the first HTML response; client-side navigation loads it. */
export default function ArticlePage() {
  const { slug = '' } = useRouteParams()
  const navigate = useNavigate()
  const { pathname } = useLocation()
  // The article's own title and description, not the route's (set once it is loaded).
  claimHead(pathname)
  const [loaded, setLoaded] = useState<State | null>(() => initialState(slug))
  const state = loaded?.slug === slug ? loaded : null

  useEffect(() => {
    if (state !== null) return undefined
    let live = true
    api.get('/api/blog/articles/{slug}', { params: { slug } }).then(
      (article) => {
        if (!live) return
        if (article.slug !== slug) {
          // An old address of a renamed article: show it at its current one.
          navigate(`/blog/${article.slug}`, { replace: true })
          return
        }
        showArticleHead(article, siteConfig().brandName, siteConfig().baseUrl)
        setLoaded({ slug, article })
      },
      (error: unknown) => {
        if (!(error instanceof ApiError && error.status === 404)) console.warn('Blog: the article could not be loaded', error)
        if (!live) return
        document.title = `Article not found | ${siteConfig().brandName}`
        setLoaded({ slug, article: null })
      },
    )
    return () => {
      live = false
    }
  }, [state, slug, navigate])

  // A German article's page says lang="de" (the server's first response already does).
  const language = state?.article?.language ?? 'en'
  useEffect(() => {
    setDocumentLanguage(language)
    return () => setDocumentLanguage('en')
  }, [language])

  return (
    <section className="section blog-article-section">
      <Container size="md">
        <BlogRegion>
          {state === null ? (
            <div className="blog-loading">
              <Spinner label="Loading article" size="lg" />
            </div>
          ) : state.article ? (
            <ArticleView article={state.article} />
          ) : (
            <ArticleMissing />
          )}
        </BlogRegion>
      </Container>
    </section>
  )
}
