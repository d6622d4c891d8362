import type { ReactNode } from 'react'
import { ClockIcon } from '../../components/icons/ClockIcon'
import { GaugeIcon } from '../../components/icons/GaugeIcon'
import { BoltIcon } from '../../components/icons/BoltIcon'
import { ClosingCta, IconCards, type IconCardItem, SectionHead } from '../content'
import { ButtonLink } from '../../components/ui/Button'
import { Section } from '../../components/ui/Section'
import { SpeedTestTool, type SpeedTestToolProps } from './SpeedTestTool'

const MEASURES: IconCardItem[] = [
  {
    title: 'PageSpeed score',
    text: '0 to 100, from Lighthouse, the engine behind Google PageSpeed Insights. 90 and above is Excellent, 70 to 89 Needs Improvement, below 70 Poor.',
    Icon: GaugeIcon,
  },
  {
    title: 'Speed Index',
    text: 'How quickly the content of your page becomes visible, in seconds. The lower, the sooner a visitor sees something worth staying for.',
    Icon: ClockIcon,
  },
  {
    title: 'Total Blocking Time',
    text: 'How long your page is too busy with scripts to react to a tap while it loads. Plugins and trackers are the usual cause.',
    Icon: BoltIcon,
  },
]

export interface SpeedTestPageProps extends SpeedTestToolProps {
  /** Why speed matters to this page's audience. */
  why: { title: string; text: ReactNode; items: readonly IconCardItem[] }
  closing: { title: string; text: string }
}

/** The layout the three speed-test pages share: the tool, what it measures, why it matters, a way to /start. */
export function SpeedTestPage({ why, closing, ...tool }: SpeedTestPageProps) {
  return (
    <>
      <SpeedTestTool {...tool} />
      <Section tone="muted" aria-labelledby="measures-title">
        <SectionHead
          eyebrow="What we measure"
          title="Three figures that tell you how fast your site feels"
          titleId="measures-title"
          text="We load your page on a simulated phone over a mobile connection, the way most of your visitors arrive."
        />
        <IconCards items={MEASURES} columns={3} />
      </Section>
      <Section aria-labelledby="why-title">
        <SectionHead eyebrow="Why it matters" title={why.title} titleId="why-title" text={why.text} />
        <IconCards items={why.items} columns={3} />
      </Section>
      <ClosingCta
        title={closing.title}
        text={closing.text}
        actions={
          <ButtonLink to="/start" size="lg">
            Get My Fast Website
          </ButtonLink>
        }
      />
    </>
  )
}
