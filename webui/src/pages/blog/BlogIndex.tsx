import { useEffect, useState } from 'react'
import { useLocation } from 'react-router-dom'
import { BlogList, BlogRegion, embeddedBlogData, pageFromSearch, type BlogPage } from '../../features/blog'
import { PageIntro } from '../../components/layout/PageIntro'
import { Container } from '../../components/ui/Section'
import { Spinner } from '../../components/ui/Spinner'
import { api } from '../../lib/api-client'

const EMPTY: BlogPage = { articles: [], page: 1, pages: 1, total: 0 }

function initialList(): BlogPage | null {
  const data = embeddedBlogData()
  return data?.kind === 'list' ? data.page : null
}

/** /blog: 'Latest Articles', the published articles newest first, 12 a page. The server puts
 * the current list into the first HTML response; client-side navigation loads it. */
export default function BlogIndexPage() {
  const { pathname, search } = useLocation()
  const page = pageFromSearch(search) ?? 1
  const url = pathname + search
  const [loaded, setLoaded] = useState<{ url: string; data: BlogPage } | null>(() => {
    const data = initialList()
    return data ? { url, data } : null
  })
  const data = loaded?.url === url ? loaded.data : null

  useEffect(() => {
    if (data !== null) return undefined
    let live = true
    api.get('/api/blog/articles', { query: { page } }).then(
      (answer) => live && setLoaded({ url, data: answer }),
      (error: unknown) => {
        // Spec §8: a failure is only logged; the list stays empty.
        console.warn('Blog: the articles could not be loaded', error)
        if (live) setLoaded({ url, data: EMPTY })
      },
    )
    return () => {
      live = false
    }
  }, [data, page, url])

  return (
    <>
      <PageIntro
        heading="Latest Articles"
        eyebrow="Blog"
        text="Articles on fast websites, sales funnels, SEO and AI automation for small businesses."
      />
      <section className="section blog-section">
        <Container size="lg">
          <BlogRegion>
            {data ? (
              <BlogList data={data} />
            ) : (
              <div className="blog-loading">
                <Spinner label="Loading articles" size="lg" />
              </div>
            )}
          </BlogRegion>
        </Container>
      </section>
    </>
  )
}
