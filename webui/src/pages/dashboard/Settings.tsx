export { SettingsPage as default } from '../../features/auth'
