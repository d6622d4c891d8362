export { ProfilePage as default } from '../../features/auth'
