export { OverviewHome } from './OverviewHome'
export type { Overview } from './overview'
