export { AdminSupportPage as default } from '../../features/support'
