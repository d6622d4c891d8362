export { NotificationsButton } from './NotificationsButton'
export { default as UnsubscribePage } from './pages/Unsubscribe'
