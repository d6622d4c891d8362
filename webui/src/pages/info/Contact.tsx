import { ContentPage } from '../../components/content/ContentPage'

/** /contact: text from config/pages/contact.md. */
export default function ContactPage() {
  return <ContentPage name="contact" />
}
