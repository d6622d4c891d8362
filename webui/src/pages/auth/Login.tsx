export { LoginPage as default } from '../../features/auth'
