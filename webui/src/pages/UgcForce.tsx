import { ChartIcon } from '../components/icons/ChartIcon'
import { ClockIcon } from '../components/icons/ClockIcon'
import { UsersIcon } from '../components/icons/UsersIcon'
import { VideoIcon } from '../components/icons/VideoIcon'
import { BoltIcon } from '../components/icons/BoltIcon'
import {
  CheckList,
  ClosingCta,
  IconCards,
  Steps,
  type IconCardItem,
  type StepItem,
  FaqAccordion,
  type FaqItem,
  LandingHero,
  SectionHead,
  StickyMobileCta,
  startUrl,
} from '../features/content'
import { PlanTiers } from '../features/catalogue'
import { ButtonLink } from '../components/ui/Button'
import { Section } from '../components/ui/Section'
import { useHydrated } from '../lib/forms'
import { siteConfig } from '../lib/site-config'

const TYPE = 'ugc'
const PLANS = ['starter-clip', 'conversion-bundle', 'scaling-stack', 'custom-campaign'] as const
const MAIN_CTA = startUrl(TYPE, 'conversion-bundle')

const reasons: IconCardItem[] = [
  { title: 'Real creators', text: 'Real people film your product in their own homes and words, the way your customers would talk about it.', Icon: UsersIcon },
  { title: 'Hooks that stop the scroll', text: 'Every script opens with a hook written for paid social, so viewers stay past the first three seconds.', Icon: BoltIcon },
  { title: 'Ad-ready formats', text: 'Vertical 9:16 videos with captions, ready to upload to your ad manager or social profiles.', Icon: VideoIcon },
  { title: 'Built to test', text: 'Several hooks and angles per product, so you can find the winning ad and scale it.', Icon: ChartIcon },
]

const steps: StepItem[] = [
  { title: 'Choose a package', text: 'Pick the number of videos you need and check out securely.' },
  { title: 'Share your brief', text: 'Tell us about your product, audience and offer; ship a sample if the product is physical.' },
  { title: 'We script and film', text: 'We write the scripts, cast the creators and film the videos.' },
  { title: 'Get your videos', text: 'Download your finished videos, with usage rights, within the delivery time of your package.' },
]

const faq: FaqItem[] = [
  {
    question: 'What are UGC videos?',
    answer: 'User-generated-content videos are short clips in which a real person shows and talks about your product. They look like a recommendation from a friend, not like a polished advert, which is why they work so well in social feeds.',
  },
  {
    question: 'When does the delivery time start?',
    answer: 'It starts once we have your brief and, for physical products, the product sample. Starter Clip arrives within 48 hours, Conversion Bundle within 72 hours, Scaling Stack within 5 days and Custom Campaign within 5-7 days.',
  },
  {
    question: 'Can I use the videos in paid ads?',
    answer: 'Yes. Every package includes usage rights, so you can run the videos as ads and post them on your own channels.',
  },
  {
    question: 'What if I need more than 30 videos?',
    answer: 'Custom Campaign covers up to 30 videos. For larger or recurring campaigns, order a Custom Campaign and tell us your volume in the brief; we plan the rest with you.',
  },
]

/**
 * The hero's sample video in a phone frame: the configured self-hosted video
 * (`ugcSampleVideo`, settings `ugc_sample_video` and `ugc_sample_poster`) with its poster,
 * fetched only when the visitor plays it (`preload="none"`); without one, the frame shows a
 * still mock-up. The prerendered page has the mock-up; the video takes its place on hydration
 * (same box, no layout shift).
 */
function SampleVideo() {
  // Null while hydrating the prerendered mock-up, then the configured video.
  const video = useHydrated() ? siteConfig().ugcSampleVideo : null
  const tag = (
    <p className="hero-visual__tag">
      <ClockIcon size={16} />
      Delivered from 48h
    </p>
  )
  if (video) {
    return (
      <div className="phone-mock">
        <div className="phone-mock__screen">
          {/* eslint-disable-next-line jsx-a11y/media-has-caption -- the captions track is there when the operator configures one (ugc_sample_captions) */}
          <video className="phone-mock__video" controls preload="none" playsInline poster={video.poster} width={270} height={480} aria-label="Sample UGC video">
            <source src={video.src} type={video.src.toLowerCase().endsWith('.webm') ? 'video/webm' : 'video/mp4'} />
            {video.captions && <track kind="captions" src={video.captions} srcLang="en" label="English" default />}
          </video>
        </div>
        {tag}
      </div>
    )
  }
  return (
    <div className="phone-mock" aria-hidden="true">
      <div className="phone-mock__screen">
        <span className="phone-mock__play">
          <VideoIcon size={36} />
        </span>
        <p className="phone-mock__caption">“I didn’t expect it to work this well…”</p>
        <div className="phone-mock__bar">
          <span />
        </div>
      </div>
      {tag}
    </div>
  )
}

export default function UgcForcePage() {
  return (
    <>
      <LandingHero
        badge="UGC videos from real creators"
        title="UGC Videos That Sell"
        lead="Short, authentic videos made by real creators for your ads and social media, scripted to convert and delivered in as little as 48 hours."
        points={['Scripts and hooks included', 'Usage rights for ads', 'From 48h delivery']}
        actions={
          <>
            <ButtonLink to={MAIN_CTA} size="lg">
              Order My Videos
            </ButtonLink>
            <ButtonLink to="#pricing" size="lg" variant="outline">
              See Packages
            </ButtonLink>
          </>
        }
        aside={<SampleVideo />}
      />

      <Section aria-labelledby="why-title">
        <SectionHead
          eyebrow="Why UGC"
          title="Content that feels real, and converts"
          titleId="why-title"
          text="People trust people. UGC brings that trust into your ads."
        />
        <IconCards items={reasons} />
      </Section>

      <Section id="pricing" tone="muted" className="anchor-section" aria-labelledby="pricing-title">
        <SectionHead
          eyebrow="Packages"
          title="Pick your UGC package"
          titleId="pricing-title"
          text="One-time price per package. Scripts and usage rights are always included."
        />
        <PlanTiers type={TYPE} planKeys={PLANS} ctaLabel="Order Now" />
      </Section>

      <Section id="how-it-works" className="anchor-section" aria-labelledby="how-title">
        <SectionHead eyebrow="How it works" title="From brief to finished videos" titleId="how-title" />
        <Steps items={steps} />
      </Section>

      <Section id="faq" tone="muted" aria-labelledby="faq-title">
        <SectionHead eyebrow="FAQ" title="Questions about UGC videos" titleId="faq-title" />
        <FaqAccordion items={faq} />
      </Section>

      <ClosingCta
        title="Ready for ads that feel real?"
        text="Order your videos today. The Conversion Bundle gives you 3 videos within 72 hours."
        actions={
          <ButtonLink to={MAIN_CTA} size="lg">
            Order My Videos
          </ButtonLink>
        }
      >
        <CheckList items={['Scripts included', 'Real creators', 'Usage rights']} className="closing-cta__points" />
      </ClosingCta>

      <StickyMobileCta to={MAIN_CTA} label="Order My Videos" note="3 videos in 72h" />
    </>
  )
}
