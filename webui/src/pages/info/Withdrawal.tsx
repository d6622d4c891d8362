import { ContentPage } from '../../features/content'

/** /withdrawal: the withdrawal information and the model withdrawal form, built by the server with the seller's details. */
export default function WithdrawalPage() {
  return <ContentPage name="withdrawal" />
}
