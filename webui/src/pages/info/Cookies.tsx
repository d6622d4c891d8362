import { ContentPage } from '../../features/content'

/** /cookies: text from config/pages/cookies.md. */
export default function CookiesPage() {
  return <ContentPage name="cookies" />
}
