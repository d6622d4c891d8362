import { ContentPage } from '../../features/content'

/** /terms: text from config/pages/terms.md. */
export default function TermsPage() {
  return <ContentPage name="terms" />
}
