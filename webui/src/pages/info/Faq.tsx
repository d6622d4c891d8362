import { ContentPage } from '../../features/content'

/** /faq: text from config/pages/faq.md. */
export default function FaqPage() {
  return <ContentPage name="faq" />
}
