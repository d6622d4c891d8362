import { useSearchParams } from 'react-router-dom'
import { PurchaseLayout } from '../../features/billing'
import { familyPlans, resolveStart, type Catalogue } from '../../features/catalogue'

/** /start?type=&plan=&canceled=true: the purchase page of every family sold online. */
export default function StartPage() {
  const [params] = useSearchParams()
  const type = params.get('type')
  const plan = params.get('plan')

  const select = (catalogue: Catalogue) => {
    const resolved = resolveStart(catalogue, type, plan)
    if (!resolved) return null
    const { family } = resolved
    return {
      family,
      plans: familyPlans(catalogue, family.key).filter((p) => p.checkout),
      initialPlan: resolved.plan?.key ?? null,
      // A plan named in the link narrows the list to that package (the others one click away).
      narrow: plan !== null && resolved.plan?.key === plan,
      title: family.title,
      description: family.description,
    }
  }

  return <PurchaseLayout page="start" canceled={params.get('canceled') === 'true'} select={select} eyebrow="Get started" />
}
