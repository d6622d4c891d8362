import { ContentPage } from '../../components/content/ContentPage'

/** /privacy: text from config/pages/privacy.md. */
export default function PrivacyPage() {
  return <ContentPage name="privacy" />
}
