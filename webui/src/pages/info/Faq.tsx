import { ContentPage } from '../../components/content/ContentPage'

/** /faq: text from config/pages/faq.md. */
export default function FaqPage() {
  return <ContentPage name="faq" />
}
