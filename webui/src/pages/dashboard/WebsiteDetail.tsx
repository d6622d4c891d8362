export { WebsiteDetailPage as default } from '../../features/sites'
