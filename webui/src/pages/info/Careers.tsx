import { ContentPage } from '../../components/content/ContentPage'

/** /careers: text from config/pages/careers.md. */
export default function CareersPage() {
  return <ContentPage name="careers" />
}
