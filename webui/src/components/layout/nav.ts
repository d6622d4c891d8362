/** Header navigation (spec: Global navigation). Anchors point at sections of `/`. */
export interface NavItem {
  label: string
  to: string
}

export const headerNav: readonly NavItem[] = [
  { label: 'How it works', to: '/#how-it-works' },
  { label: 'Features', to: '/#features' },
  { label: 'Pricing', to: '/#pricing' },
  { label: 'Speed Test', to: '/speed-test' },
  { label: 'AI Automation', to: '/ai-automation' },
  { label: 'UGC', to: '/ugc-force' },
]

export interface FooterColumn {
  heading: string
  links: readonly NavItem[]
}

export const footerColumns: readonly FooterColumn[] = [
  {
    heading: 'Product',
    links: [
      { label: 'How it works', to: '/how-it-works' },
      { label: 'Features', to: '/features' },
      { label: 'Pricing', to: '/pricing' },
      { label: 'Blog', to: '/blog' },
    ],
  },
  {
    heading: 'Company',
    links: [
      { label: 'About', to: '/about' },
      { label: 'Contact', to: '/contact' },
      { label: 'Careers', to: '/careers' },
      { label: 'FAQ', to: '/faq' },
    ],
  },
  {
    heading: 'Legal',
    links: [
      { label: 'Privacy', to: '/privacy' },
      { label: 'Terms', to: '/terms' },
      { label: 'Cookies', to: '/cookies' },
      { label: 'Legal notice', to: '/imprint' },
      { label: 'Withdrawal information', to: '/withdrawal' },
      { label: 'Withdraw from contract', to: '/withdraw' },
      { label: 'Cancel contracts here', to: '/cancel' },
    ],
  },
]
