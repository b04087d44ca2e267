import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { BoundedOutlet } from '../../app/bounded-outlet';
import { TabNav } from '../../components/ui/tab-nav';
import { pageTitle } from '../../lib/panel-name';
import { useT } from './messages';
import { useAccountSections } from './sections';

/** The account area: one tab per section, each with its own URL for deep links. */
export function AccountLayout() {
  const { pathname } = useLocation();
  // Each section its own title, so tabs, history and bookmarks tell them apart.
  const t = useT();
  const tabs = useAccountSections();
  const account = t('account.title');
  const section = tabs.find((s) => pathname.replace(/\/+$/, '') === s.to)?.label;
  useEffect(() => {
    document.title = section ? pageTitle(section, account) : pageTitle(account);
  }, [section, account]);
  return (
    <div className="space-y-5">
      <h1 className="text-xl font-semibold text-white">{account}</h1>
      <TabNav items={tabs} label={t('account.sections')} />
      <div className="max-w-3xl">
        <BoundedOutlet />
      </div>
    </div>
  );
}
