import { ContentPage } from '../../components/content/ContentPage'

/** /about: text from config/pages/about.md. */
export default function AboutPage() {
  return <ContentPage name="about" />
}
