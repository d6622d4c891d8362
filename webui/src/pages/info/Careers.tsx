import { ContentPage } from '../../features/content'

/** /careers: text from config/pages/careers.md. */
export default function CareersPage() {
  return <ContentPage name="careers" />
}
