export { AnalyticsPage as default } from '../../features/sites'
