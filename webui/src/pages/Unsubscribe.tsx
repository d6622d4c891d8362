export { UnsubscribePage as default } from '../features/notifications'
