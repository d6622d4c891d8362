import { Icon, type IconProps } from './Icon'

export const RocketIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M5 15c-1.5 1.5-2 5-2 5s3.5-.5 5-2" />
    <path d="M9 15l-3-3c1-4 4.5-8.5 12-9 .5 7.5-5 11-9 12z" />
    <circle cx="14.5" cy="9.5" r="1.5" />
  </Icon>
)
