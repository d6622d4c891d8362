export { WebsitesPage as default } from '../../features/sites'
