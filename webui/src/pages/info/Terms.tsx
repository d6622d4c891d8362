import { ContentPage } from '../../components/content/ContentPage'

/** /terms: text from config/pages/terms.md. */
export default function TermsPage() {
  return <ContentPage name="terms" />
}
