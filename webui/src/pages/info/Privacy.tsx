import { ContentPage } from '../../features/content'

/** /privacy: text from config/pages/privacy.md. */
export default function PrivacyPage() {
  return <ContentPage name="privacy" />
}
