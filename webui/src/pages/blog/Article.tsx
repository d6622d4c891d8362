import { Link, useParams } from 'react-router-dom'
import { PageIntro } from '../../components/layout/PageIntro'

/** Turns 'fast-websites-for-clinics' into 'Fast websites for clinics'. */
function titleFromSlug(slug: string): string {
  const words = slug.split('-').filter(Boolean).join(' ')
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'Article'
}

export default function ArticlePage() {
  const { slug = '' } = useParams()
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
