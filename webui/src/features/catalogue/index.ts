export { DEFAULT_FAMILY, badgeLabel, billingSuffix, familyPlans, findFamily, findPlan, formatPrice, loadCatalogue, planByPriceId, planPromises, priceWithSuffix, provideCatalogueForServer, resetCatalogueCache, resolveStart, useCatalogue, type Catalogue, type Family, type Plan, type PlanBadge } from './catalogue'
export { HomePricing } from './HomePricing'
export { OfferPrice, usePlan } from './OfferPrice'
export { PlanTiers } from './PlanTierCard'
