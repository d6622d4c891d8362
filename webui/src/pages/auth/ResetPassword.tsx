export { ResetPasswordPage as default } from '../../features/auth'
