import { useId, useState, type ReactNode } from 'react'
import { ChevronDownIcon } from '../../components/icons/ChevronDownIcon'
import { cx } from '../../lib/cx'
import { claimAttrs, claimShown, type ClaimKey } from '../../lib/claims'

export interface FaqItem {
  question: string
  answer: ReactNode
  /** A question about a claim (e.g. the places left): shown only while that claim is. */
  claim?: ClaimKey
}

export interface FaqAccordionProps {
  items: readonly FaqItem[]
  /** Index open at first; `null` starts with all closed. */
  defaultOpen?: number | null
}

/** FAQ list where at most one answer is open at a time. */
export function FaqAccordion({ items, defaultOpen = 0 }: FaqAccordionProps) {
  const [open, setOpen] = useState<number | null>(defaultOpen)
  const baseId = useId()
  return (
    <div className="faq">
      {items.map((item, index) => {
        // Ids keep the item's place in the full list, so they match with a claim left out.
        if (item.claim && !claimShown(item.claim)) return null
        const isOpen = open === index
        const buttonId = `${baseId}-q${index}`
        const panelId = `${baseId}-a${index}`
        return (
          <div key={item.question} className={cx('faq__item', isOpen && 'faq__item--open')} {...(item.claim ? claimAttrs(item.claim) : {})}>
            <h3 className="faq__heading">
              <button
                type="button"
                id={buttonId}
                className="faq__button"
                aria-expanded={isOpen}
                aria-controls={panelId}
                onClick={() => setOpen(isOpen ? null : index)}
              >
                <span>{item.question}</span>
                <ChevronDownIcon size={20} className="faq__chevron" />
              </button>
            </h3>
            {/* A section named by its question is a region: no role needed (html-validate). */}
            <section id={panelId} aria-labelledby={buttonId} className="faq__panel" hidden={!isOpen}>
              {item.answer}
            </section>
          </div>
        )
      })}
    </div>
  )
}
