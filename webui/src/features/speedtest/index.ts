export { ScoreGauge } from './ScoreGauge'
export { MSG_BAD_DOMAIN, MSG_EMAIL_REQUIRED, MSG_GENERIC, MSG_URL_REQUIRED, isTooSlow, layoutShift, milliseconds, ratingFor, scanProgress, seconds, stripGeneric, stripScheme } from './speed-test'
export { SpeedTestPage } from './SpeedTestPage'
