export { MSG_EMAIL, MSG_EMAIL_INVALID } from './support'
export { default as AdminSupportPage } from './pages/AdminSupport'
export { default as DashboardSupportPage } from './pages/DashboardSupport'
export { default as SupportPage } from './pages/Support'
