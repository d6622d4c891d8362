export { DashboardSupportPage as default } from '../../features/support'
