import { Link } from 'react-router';
import type { Server } from '../../contract/servers';
import { useAccount } from '../../app/require-auth';
import { Can, PermissionHint, useCan } from '../../lib/permissions';
import { usePageIntent } from '../../lib/use-page-intent';
import { Card, DetailItem, DetailList } from '../../components/ui/card';
import { CopyButton } from '../../components/ui/copy-button';
import { useServer } from './api';
import { ServerResourcesCard } from './server-resources-card';
import { ServerAllocationsCard } from './server-allocations-card';
import { ServerStartupCard } from './server-startup-card';
import { T, useT } from './messages';

/** What the server is, where it runs, how to reach it and what it may use. Everything a member may read. */
export function ServerOverviewPage() {
  const server = useServer();
  const canReadNetwork = useCan('allocation.read');
  return (
    // Two independent columns, so a tall card never leaves a hole beside a short one.
    <div className="grid items-start gap-4 lg:grid-cols-2">
      <div className="grid min-w-0 gap-4">
        <AboutCard server={server} />
        <ServerResourcesCard server={server} />
      </div>
      <div className="grid min-w-0 gap-4">
        <SftpCard server={server} />
        <ServerAllocationsCard
          allocations={server.relationships.allocations.data.map((a) => a.attributes)}
          manageHref={canReadNetwork ? `/server/${server.routeId}/network` : undefined}
        />
        <ServerStartupCard server={server} />
      </div>
    </div>
  );
}

function AboutCard({ server }: { server: Server }) {
  const t = useT();
  return (
    <Card title={t('servers.about.title')}>
      <DetailList>
        <DetailItem term={t('servers.about.name')}>{server.name}</DetailItem>
        <DetailItem term={t('servers.description')}>
          {server.description ? (
            <span className="whitespace-pre-line">{server.description}</span>
          ) : (
            <span className="text-zinc-400">{t('servers.about.noDescription')}</span>
          )}
        </DetailItem>
        <DetailItem term={t('servers.node')}>
          {server.node}
          {server.is_node_under_maintenance && <span className="text-amber-300"> {t('servers.about.maintenance')}</span>}
        </DetailItem>
        <DetailItem term={t('servers.about.identifier')} action={<CopyButton value={server.identifier} label={t('servers.about.copyIdentifier')} />}>
          <code className="font-mono">{server.identifier}</code>
        </DetailItem>
        <DetailItem term={t('servers.about.uuid')} action={<CopyButton value={server.uuid} label={t('servers.about.copyUuid')} />}>
          <code className="font-mono break-all">{server.uuid}</code>
        </DetailItem>
      </DetailList>
    </Card>
  );
}

const SFTP_CARD_ID = 'sftp';

/** SFTP logins use `<username>.<identifier>` with the account password (the reference panel's scheme). */
export function SftpCard({ server }: { server: Server }) {
  const t = useT();
  const account = useAccount();
  const { ip, port } = server.sftp_details;
  const host = ip.includes(':') && !ip.startsWith('[') ? `[${ip}]` : ip;
  const address = `sftp://${host}:${port}`;
  const username = `${account.username}.${server.identifier}`;
  // The command palette's "SFTP details" lands here: the card comes into view with focus.
  usePageIntent('sftp', true, () => {
    const card = document.getElementById(SFTP_CARD_ID);
    card?.scrollIntoView({ block: 'center' });
    card?.focus({ preventScroll: true });
  });
  return (
    <Card title={t('servers.sftp.title')} id={SFTP_CARD_ID}>
      <Can
        permission="file.sftp"
        fallback={
          <div className="space-y-2">
            <p className="text-sm text-zinc-400">{t('servers.sftp.forbidden')}</p>
            <PermissionHint permission="file.sftp" />
          </div>
        }
      >
        {port === 0 ? (
          // Aerie's node says 0 when its SFTP server could not listen (its port taken).
          <p className="text-sm text-zinc-400">{t('servers.sftp.unavailable')}</p>
        ) : (
          <>
            <DetailList>
              <DetailItem term={t('servers.sftp.address')} action={<CopyButton value={address} label={t('servers.copyAddress')} />}>
                <code className="font-mono break-all">{address}</code>
              </DetailItem>
              <DetailItem term={t('servers.sftp.username')} action={<CopyButton value={username} label={t('servers.sftp.copyUsername')} />}>
                <code className="font-mono break-all">{username}</code>
              </DetailItem>
              <DetailItem term={t('servers.sftp.password')}>
                <span className="text-zinc-300">{t('servers.sftp.accountPassword')}</span>
              </DetailItem>
            </DetailList>
            <p className="mt-3 text-sm text-zinc-400">
              <T
                k="servers.sftp.keys"
                components={{ 0: <Link to="/account/ssh-keys" className="text-zinc-200 underline underline-offset-2 hover:text-white" /> }}
              />
            </p>
            <a
              href={`sftp://${encodeURIComponent(username)}@${host}:${port}`}
              className="mt-4 inline-flex min-h-9 items-center rounded-md bg-zinc-800 px-3 text-sm font-medium text-zinc-100 ring-1 ring-zinc-700 ring-inset hover:bg-zinc-700"
            >
              {t('servers.sftp.open')}
            </a>
          </>
        )}
      </Can>
    </Card>
  );
}
