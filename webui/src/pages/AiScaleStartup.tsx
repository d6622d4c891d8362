import { PageIntro } from '../components/layout/PageIntro'

export default function AiScaleStartupPage() {
  return (
    <PageIntro
      heading="30 Videos and Posts in 24h From One Idea"
      eyebrow="For startup founders"
      text="An AI content engine for founders: turn one idea into a month of videos and posts, with approval control and scheduling."
    />
  )
}
