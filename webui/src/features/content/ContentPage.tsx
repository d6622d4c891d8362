import { useEffect, useState } from 'react'
import { api, errorMessage } from '../../lib/api-client'
import { Button } from '../../components/ui/Button'
import { ErrorBox } from '../../components/ui/ErrorBox'
import { Container } from '../../components/ui/Section'
import { Spinner } from '../../components/ui/Spinner'

/** What the prerender writes; the server replaces it with the page's Markdown as HTML. */
export const contentPageMarker = (name: string) => `<!--agency-page:${name}-->`

/**
 * The page's HTML when it is already in the document: the server filled the prerendered page,
 * so hydration reuses exactly that markup. `null` means it has to be fetched (client-side
 * navigation, or a build served without the server).
 */
function htmlInDocument(name: string): string | null {
  if (typeof document === 'undefined') return contentPageMarker(name)
  const element = document.querySelector(`[data-content-page="${name}"]`)
  if (!element) return null
  const html = element.innerHTML
  return html.trim() === contentPageMarker(name) ? null : html
}

/**
 * A footer page (/faq, /about, /privacy, ...) whose text the agency writes in Markdown
 * (config/pages/<name>.md); the server renders and sanitises it.
 */
export function ContentPage({ name }: { name: string }) {
  const [html, setHtml] = useState<string | null>(() => htmlInDocument(name))
  const [error, setError] = useState<string | null>(null)
  const [attempt, setAttempt] = useState(0)
  const retry = () => {
    setError(null)
    setAttempt((n) => n + 1)
  }

  useEffect(() => {
    if (html !== null) return undefined
    let live = true
    api.get('/api/pages/{name}', { params: { name } }).then(
      (page) => live && setHtml(page.html),
      (err: unknown) => live && setError(errorMessage(err)),
    )
    return () => {
      live = false
    }
  }, [name, html, attempt])

  return (
    <section className="section content-page-section">
      <Container size="md">
        {html !== null ? (
          // Sanitised on the server (allow-list of tags, no scripts or event handlers).
          <article className="prose" data-content-page={name} dangerouslySetInnerHTML={{ __html: html }} />
        ) : error ? (
          <ErrorBox title="This page could not be loaded">
            <p>{error}</p>
            <Button variant="outline" onClick={retry}>
              Try again
            </Button>
          </ErrorBox>
        ) : (
          <div className="content-page-loading">
            <Spinner label="Loading page" size="lg" />
          </div>
        )}
      </Container>
    </section>
  )
}
