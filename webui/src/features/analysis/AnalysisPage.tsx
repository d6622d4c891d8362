import { ClosingCta, IconCards, type IconCardItem, SectionHead } from '../content'
import { ButtonLink } from '../../components/ui/Button'
import { Section } from '../../components/ui/Section'
import { AnalysisTool, type AnalysisToolProps } from './AnalysisTool'

export interface AnalysisPageProps extends AnalysisToolProps {
  /** What this page's analysis looks at. */
  covers: { title: string; text: string; items: readonly IconCardItem[] }
  closing: { title: string; text: string; action: string }
}

/** The layout the four analysis pages share: the tool, what it covers, how it is grounded, a way to /start. */
export function AnalysisPage({ covers, closing, ...tool }: AnalysisPageProps) {
  return (
    <>
      <AnalysisTool {...tool} />
      <Section tone="muted" aria-labelledby="covers-title">
        <SectionHead eyebrow="What you get" title={covers.title} titleId="covers-title" text={covers.text} />
        <IconCards items={covers.items} columns={3} />
      </Section>
      <Section aria-labelledby="grounded-title" size="md">
        <SectionHead
          eyebrow="No guesswork"
          title="Read from your real page"
          titleId="grounded-title"
          text="We fetch your page and note what is really on it: title and description, headings, calls to action, forms, contact details, booking and chat widgets, analytics, image alt texts and scripts, and we measure its speed on a phone. The report is written from those facts, and it shows them to you, so every finding can be checked."
        />
      </Section>
      <ClosingCta
        title={closing.title}
        text={closing.text}
        actions={
          <ButtonLink to="/start" size="lg">
            {closing.action}
          </ButtonLink>
        }
      />
    </>
  )
}
