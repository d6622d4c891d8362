import { PageIntro } from '../../components/layout/PageIntro'

export default function BlogIndexPage() {
  return (
    <PageIntro
      heading="Latest Articles"
      eyebrow="Blog"
      text="Articles on fast websites, sales funnels, SEO and AI automation for small businesses."
    />
  )
}
