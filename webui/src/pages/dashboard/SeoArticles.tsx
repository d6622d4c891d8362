import { PageIntro } from '../../components/layout/PageIntro'

export default function SeoArticlesPage() {
  return (
    <PageIntro
      heading="SEO Articles"
      text="Generate, edit, publish and archive blog articles here."
    />
  )
}
