import { ContentPage } from '../../features/content'

/** /contact: text from config/pages/contact.md. */
export default function ContactPage() {
  return <ContentPage name="contact" />
}
