export { ForgotPasswordPage as default } from '../../features/auth'
