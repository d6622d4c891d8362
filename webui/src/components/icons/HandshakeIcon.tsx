import { Icon, type IconProps } from './Icon'

export const HandshakeIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M12 21s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 11c0 5.6-7 10-7 10z" />
  </Icon>
)
