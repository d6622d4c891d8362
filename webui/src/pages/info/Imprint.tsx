import { ContentPage } from '../../features/content'

/** /imprint: the legal notice, built by the server from the seller's details. */
export default function ImprintPage() {
  return <ContentPage name="imprint" />
}
