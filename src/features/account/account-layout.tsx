import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { BoundedOutlet } from '../../app/bounded-outlet';
import { TabNav } from '../../components/ui/tab-nav';
import { pageTitle } from '../../lib/panel-name';
import { ACCOUNT_SECTIONS as TABS } from './sections';

/** The account area: one tab per section, each with its own URL for deep links. */
export function AccountLayout() {
  const { pathname } = useLocation();
  // Each section its own title, so tabs, history and bookmarks tell them apart.
  const section = TABS.find((t) => pathname.replace(/\/+$/, '') === t.to)?.label ?? 'Account';
  useEffect(() => {
    document.title = section === 'Account' ? pageTitle('Account') : pageTitle(section, 'Account');
  }, [section]);
  return (
    <div className="space-y-5">
      <h1 className="text-xl font-semibold text-white">Account</h1>
      <TabNav items={TABS} label="Account sections" />
      <div className="max-w-3xl">
        <BoundedOutlet />
      </div>
    </div>
  );
}
