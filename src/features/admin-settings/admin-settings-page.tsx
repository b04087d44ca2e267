import { useQuery } from '@tanstack/react-query';
import { PageSpinner } from '../../components/ui/spinner';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { adminSettingsQueries } from './api';
import { PanelNameCard, TwoFactorPolicyCard } from './general-settings';
import { MailSettingsCard } from './mail-settings';
import { useT } from './messages';

/** The panel's settings: its name, who must use two-factor authentication, its mail. */
export function AdminSettingsPage() {
  const t = useT();
  const query = useQuery(adminSettingsQueries.settings());
  if (query.isPending) return <PageSpinner />;
  // A Pterodactyl panel keeps these in its own admin pages.
  if (query.isError && query.error.status === 404) return <EmptyState title={t('adminSettings.elsewhere')} />;
  if (query.isError) return <ErrorState error={query.error} />;
  return (
    <div className="grid gap-5 lg:grid-cols-2">
      <div className="flex min-w-0 flex-col gap-5">
        <PanelNameCard settings={query.data} />
        <TwoFactorPolicyCard settings={query.data} />
      </div>
      <MailSettingsCard settings={query.data} />
    </div>
  );
}
