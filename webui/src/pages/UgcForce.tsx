import { PageIntro } from '../components/layout/PageIntro'

export default function UgcForcePage() {
  return (
    <PageIntro
      heading="UGC Videos That Sell"
      eyebrow="UGC video"
      text="Short user-generated-content videos for your ads and social channels, made by real creators and delivered within days."
    />
  )
}
