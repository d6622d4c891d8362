export { AdminWebsitesPage as default } from '../../features/sites'
