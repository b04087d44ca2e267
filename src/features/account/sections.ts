import { useMemo } from 'react';
import { useT } from './messages';

/** The account area's sections: its tabs, and the pages the command palette jumps to. */
export const ACCOUNT_SECTIONS = [
  { to: '/account', label: 'account.section.profile', end: true },
  { to: '/account/password', label: 'account.section.password' },
  { to: '/account/two-factor', label: 'account.section.twoFactor' },
  { to: '/account/api-keys', label: 'account.section.apiKeys' },
  { to: '/account/ssh-keys', label: 'account.section.sshKeys' },
  { to: '/account/appearance', label: 'account.section.appearance' },
  { to: '/account/activity', label: 'account.section.activity' },
] as const;

/** The sections with their names in the language shown. */
export function useAccountSections() {
  const t = useT();
  return useMemo(() => ACCOUNT_SECTIONS.map((s) => ({ ...s, label: t(s.label) })), [t]);
}
