import { PageIntro } from '../../components/layout/PageIntro'

export default function CookiesPage() {
  return (
    <PageIntro
      heading="Cookie Policy"
      text="This site only uses the cookies it needs to work, such as the one that keeps you signed in."
    />
  )
}
