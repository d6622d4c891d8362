import { PageIntro } from '../../components/layout/PageIntro'

export default function WebsitesPage() {
  return (
    <PageIntro
      heading="Your Websites"
      text="Every website we build and host for you, with its status and speed score."
    />
  )
}
