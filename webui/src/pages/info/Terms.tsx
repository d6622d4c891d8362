import { PageIntro } from '../../components/layout/PageIntro'

export default function TermsPage() {
  return (
    <PageIntro
      heading="Terms of Service"
      text="The terms that apply when you use this site and buy our services."
    />
  )
}
