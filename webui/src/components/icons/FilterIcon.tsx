import { Icon, type IconProps } from './Icon'

export const FilterIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 5h16l-6 7.5V19l-4 2v-8.5L4 5z" />
  </Icon>
)
