/** The account area's sections: its tabs, and the pages the command palette jumps to. */
export const ACCOUNT_SECTIONS = [
  { to: '/account', label: 'Profile', end: true },
  { to: '/account/password', label: 'Password' },
  { to: '/account/two-factor', label: 'Two-factor' },
  { to: '/account/api-keys', label: 'API keys' },
  { to: '/account/ssh-keys', label: 'SSH keys' },
  { to: '/account/appearance', label: 'Appearance' },
  { to: '/account/activity', label: 'Activity' },
] as const;
