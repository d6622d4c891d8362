import { ContentPage } from '../../components/content/ContentPage'

/** /cookies: text from config/pages/cookies.md. */
export default function CookiesPage() {
  return <ContentPage name="cookies" />
}
