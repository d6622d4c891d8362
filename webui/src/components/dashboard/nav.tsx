import type { ComponentType } from 'react'
import { isActivePath } from '../../lib/router'
import { CardIcon } from '../icons/CardIcon'
import { ChartIcon } from '../icons/ChartIcon'
import { FileTextIcon } from '../icons/FileTextIcon'
import { GlobeIcon } from '../icons/GlobeIcon'
import { HomeIcon } from '../icons/HomeIcon'
import { InboxIcon } from '../icons/InboxIcon'
import type { IconProps } from '../icons/Icon'
import { LifebuoyIcon } from '../icons/LifebuoyIcon'
import { MailIcon } from '../icons/MailIcon'
import { ServerIcon } from '../icons/ServerIcon'
import { SettingsIcon } from '../icons/SettingsIcon'
import { UserIcon } from '../icons/UserIcon'

export interface DashboardLink {
  to: string
  label: string
  end: boolean
  Icon: ComponentType<IconProps>
}

export interface AdminLink extends DashboardLink {
  /** Told to a non-admin who opens the page. */
  refusal: string
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

/** Admin-only pages: the article manager (spec section 6), the leads from the public forms and every customer website. */
export const adminLinks: readonly AdminLink[] = [
  {
    to: '/dashboard/seo',
    label: 'SEO Articles',
    end: false,
    Icon: FileTextIcon,
    refusal: 'Only admins can open the article manager.',
  },
  {
    to: '/dashboard/leads',
    label: 'Leads',
    end: false,
    Icon: InboxIcon,
    refusal: 'Only admins can see the leads from the website forms.',
  },
  {
    to: '/dashboard/admin/websites',
    label: 'All Websites',
    end: false,
    Icon: ServerIcon,
    refusal: 'Only admins can see every customer website.',
  },
  {
    to: '/dashboard/admin/support',
    label: 'Support Requests',
    end: false,
    Icon: MailIcon,
    refusal: 'Only admins can see the support requests.',
  },
  {
    to: '/dashboard/admin/contracts',
    label: 'Withdrawals & Cancellations',
    end: false,
    Icon: FileTextIcon,
    refusal: 'Only admins can see the withdrawals and cancellations.',
  },
  {
    to: '/dashboard/admin/vat',
    label: 'VAT Report',
    end: false,
    Icon: FileTextIcon,
    refusal: 'Only admins can see the VAT report.',
  },
  {
    to: '/dashboard/admin/catalogue',
    label: 'Catalogue',
    end: false,
    Icon: CardIcon,
    refusal: 'Only admins can change the catalogue.',
  },
  {
    to: '/dashboard/admin/audit',
    label: 'Audit Log',
    end: false,
    Icon: FileTextIcon,
    refusal: 'Only admins can read the audit log.',
  },
]

export function linksFor(role: string | undefined): readonly DashboardLink[] {
  return role === 'admin' ? [...dashboardLinks, ...adminLinks] : dashboardLinks
}

/** The admin-only page `pathname` belongs to, if any (compared as routes compare paths: `/dashboard/SEO/` too). */
export function adminPageFor(pathname: string): AdminLink | undefined {
  return adminLinks.find((link) => isActivePath(pathname, link.to))
}

/** True for paths only admins may open. */
export function isAdminPath(pathname: string): boolean {
  return adminPageFor(pathname) !== undefined
}
