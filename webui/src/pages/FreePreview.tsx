import { PageIntro } from '../components/layout/PageIntro'

export default function FreePreviewPage() {
  return (
    <PageIntro
      heading="Get Your Free Website Preview"
      eyebrow="Free preview"
      text="Tell us your name, e-mail and website. We analyse your site and send a preview of the improved version within 2 hours."
    />
  )
}
