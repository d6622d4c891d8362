import { ContentPage } from '../../features/content'

/** /about: text from config/pages/about.md. */
export default function AboutPage() {
  return <ContentPage name="about" />
}
