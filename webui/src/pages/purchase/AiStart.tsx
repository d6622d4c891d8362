import { useSearchParams } from 'react-router-dom'
import { PurchaseLayout } from '../../features/billing'
import { DEFAULT_FAMILY, familyPlans, findFamily, type Catalogue } from '../../features/catalogue'

export const AI_START_TITLE = 'Start Your Website, Live in 24 Hours'

/** /ai-start?plan=&canceled=true: the website packages only, for the rebuild campaign. */
export default function AiStartPage() {
  const [params] = useSearchParams()
  const plan = params.get('plan')

  const select = (catalogue: Catalogue) => {
    const family = findFamily(catalogue, DEFAULT_FAMILY)
    if (!family) return null
    const plans = familyPlans(catalogue, family.key).filter((p) => p.checkout)
    return {
      family,
      plans,
      initialPlan: plans.some((p) => p.key === plan) ? plan : family.default_plan,
      title: AI_START_TITLE,
      description:
        'Pick your website package and continue to secure card checkout. We rebuild your site for speed and it goes live within 24 hours.',
    }
  }

  return <PurchaseLayout page="ai-start" canceled={params.get('canceled') === 'true'} select={select} eyebrow="24h rebuild" />
}
