import type { ComponentType } from 'react'
import { CardIcon } from '../icons/CardIcon'
import { ChartIcon } from '../icons/ChartIcon'
import { FileTextIcon } from '../icons/FileTextIcon'
import { GlobeIcon } from '../icons/GlobeIcon'
import { HomeIcon } from '../icons/HomeIcon'
import type { IconProps } from '../icons/Icon'
import { LifebuoyIcon } from '../icons/LifebuoyIcon'
import { SettingsIcon } from '../icons/SettingsIcon'
import { UserIcon } from '../icons/UserIcon'

export interface DashboardLink {
  to: string
  label: string
  end: boolean
  Icon: ComponentType<IconProps>
}

export const dashboardLinks: readonly DashboardLink[] = [
  { to: '/dashboard', label: 'Dashboard', end: true, Icon: HomeIcon },
  { to: '/dashboard/websites', label: 'Websites', end: false, Icon: GlobeIcon },
  { to: '/dashboard/analytics', label: 'Analytics', end: false, Icon: ChartIcon },
  { to: '/dashboard/billing', label: 'Billing', end: false, Icon: CardIcon },
  { to: '/dashboard/support', label: 'Support', end: false, Icon: LifebuoyIcon },
  { to: '/dashboard/profile', label: 'Profile', end: false, Icon: UserIcon },
  { to: '/dashboard/settings', label: 'Settings', end: false, Icon: SettingsIcon },
]

/** Admin-only pages (spec section 6): the article manager. */
export const adminLinks: readonly DashboardLink[] = [
  { to: '/dashboard/seo', label: 'SEO Articles', end: false, Icon: FileTextIcon },
]

export function linksFor(role: string | undefined): readonly DashboardLink[] {
  return role === 'admin' ? [...dashboardLinks, ...adminLinks] : dashboardLinks
}

/** True for paths only admins may open. */
export function isAdminPath(pathname: string): boolean {
  return adminLinks.some((link) => pathname === link.to || pathname.startsWith(`${link.to}/`))
}
