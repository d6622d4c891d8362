import { Link, useRouteParams } from '../../lib/router'
import { PageIntro } from '../../components/layout/PageIntro'

/** Turns 'fast-websites-for-clinics' into 'Fast websites for clinics'. */
function titleFromSlug(slug: string): string {
  const words = slug.split('-').filter(Boolean).join(' ')
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'Article'
}

export default function ArticlePage() {
  const { slug = '' } = useRouteParams()
  return (
    <PageIntro
      heading={titleFromSlug(slug)}
      eyebrow="Blog"
      text="This page shows one published article from our blog."
    >
      <p>
        <Link to="/blog">Back to all articles</Link>
      </p>
    </PageIntro>
  )
}
