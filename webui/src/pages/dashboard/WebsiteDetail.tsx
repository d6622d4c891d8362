import { PageIntro } from '../../components/layout/PageIntro'

export default function WebsiteDetailPage() {
  return (
    <PageIntro
      heading="Website details"
      text="The status and speed-score history of this website appear here."
    />
  )
}
