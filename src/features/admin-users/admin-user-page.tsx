import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, DetailItem, DetailList } from '../../components/ui/card';
import { CopyButton } from '../../components/ui/copy-button';
import { PageSpinner } from '../../components/ui/spinner';
import { ErrorState } from '../../components/ui/states';
import { formatDateTime } from '../../lib/format';
import { useLocale } from '../../lib/i18n/catalog';
import { adminServerQueries } from '../admin-servers/api';
import { usePanelSendsNoMail } from '../admin-settings/api';
import { adminUserQueries } from './api';
import { t as say, useT } from './messages';
import { DeleteUserDialog, DisableTwoFactorDialog, PasswordLinkDialog, type PasswordLinkResult } from './user-action-dialogs';
import { UserFormDialog } from './user-form-dialog';
import { pageTitle } from '../../lib/panel-name';

type Open = 'edit' | 'password' | 'two-factor' | 'delete' | null;

/** What the users page says it did on the way here (a user just created). */
function createdNotice(state: unknown, noMail: boolean): string | null {
  const created = typeof state === 'object' && state !== null && 'created' in state ? state.created : null;
  if (created === 'invited' && noMail) return say('adminUsers.created.invitedNoMail');
  if (created === 'invited') return say('adminUsers.created.invited');
  return created === 'created' ? say('adminUsers.created.withPassword') : null;
}

/** One account: its details, and what a root admin may do to it (edit, password link, two-factor off, delete). */
export function AdminUserPage() {
  const { userId = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const t = useT();
  const locale = useLocale();
  const query = useQuery(adminUserQueries.detail(userId));
  const owned = useQuery(adminServerQueries.ofUser(userId));
  const [open, setOpen] = useState<Open>(null);
  const [link, setLink] = useState<PasswordLinkResult | null>(null);
  const notice = createdNotice(location.state, usePanelSendsNoMail());
  const name = query.data?.username;
  useEffect(() => {
    if (name) document.title = pageTitle(name, t('adminUsers.title'), t('adminUsers.admin'));
  }, [name, t]);

  if (query.isPending) return <PageSpinner />;
  if (query.isError) return <ErrorState error={query.error} />;
  const user = query.data;
  const dialog = (which: Exclude<Open, null>) => ({ open: open === which, onOpenChange: (o: boolean) => setOpen(o ? which : null) });

  return (
    <div className="space-y-4">
      <Link to="/admin/users" className="text-sm font-medium text-sky-400 hover:text-sky-300">
        {t('adminUsers.back')}
      </Link>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="flex flex-wrap items-center gap-2 text-lg font-semibold break-all text-white">
          {user.username}
          {user.root_admin && <Badge tone="info">{t('adminUsers.rootAdmin')}</Badge>}
        </h2>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={() => setOpen('edit')}>
            {t('adminUsers.editAction')}
          </Button>
          <Button variant="secondary" onClick={() => setOpen('password')}>
            {t('adminUsers.passwordLink')}
          </Button>
          {user['2fa'] && (
            <Button variant="secondary" onClick={() => setOpen('two-factor')}>
              {t('adminUsers.twoFactorTurnOff')}
            </Button>
          )}
          <Button variant="danger" onClick={() => setOpen('delete')}>
            {t('adminUsers.delete')}
          </Button>
        </div>
      </div>

      {notice && (
        <p role="status" className="rounded-lg bg-zinc-900/60 p-3 text-sm text-zinc-200 ring-1 ring-zinc-800">
          {notice}
        </p>
      )}
      {link && (
        <div role="status" className="space-y-2 rounded-lg bg-zinc-900/60 p-3 text-sm text-zinc-200 ring-1 ring-zinc-800">
          {link.mailed ? (
            <p>{t('adminUsers.link.mailed', { email: user.email })}</p>
          ) : link.link ? (
            <>
              <p>{t('adminUsers.link.passOn', { email: user.email })}</p>
              <p className="flex flex-wrap items-center gap-2">
                <code className="min-w-0 font-mono text-xs break-all text-zinc-100">{link.link}</code>
                <CopyButton value={link.link} label={t('adminUsers.link.copy')} />
              </p>
            </>
          ) : (
            <p>{t('adminUsers.link.lost')}</p>
          )}
          <Button variant="ghost" size="sm" onClick={() => setLink(null)}>
            {t('adminUsers.dismiss')}
          </Button>
        </div>
      )}

      <Card title={t('adminUsers.account')}>
        <DetailList>
          <DetailItem term={t('adminUsers.email')}>{user.email}</DetailItem>
          <DetailItem term={t('adminUsers.name')}>{`${user.first_name} ${user.last_name}`.trim() || '—'}</DetailItem>
          <DetailItem term={t('adminUsers.twoFactor')}>{t(user['2fa'] ? 'adminUsers.on' : 'adminUsers.off')}</DetailItem>
          <DetailItem term={t('adminUsers.language')}>{user.language}</DetailItem>
          <DetailItem term={t('adminUsers.externalId')}>{user.external_id ?? '—'}</DetailItem>
          <DetailItem term={t('adminUsers.id')}>
            {user.id} · <span className="break-all">{user.uuid}</span>
          </DetailItem>
          <DetailItem term={t('adminUsers.createdAt')}>{formatDateTime(user.created_at, locale)}</DetailItem>
          <DetailItem term={t('adminUsers.updatedAt')}>{formatDateTime(user.updated_at, locale)}</DetailItem>
        </DetailList>
      </Card>

      <Card title={t('adminUsers.servers')}>
        {owned.isError ? (
          <p className="text-sm text-red-400">{t('adminUsers.serversFailed', { error: owned.error.message })}</p>
        ) : owned.data?.length === 0 ? (
          <p className="text-sm text-zinc-400">{t('adminUsers.noServers')}</p>
        ) : (
          <ul aria-label={t('adminUsers.serversOf')} className="divide-y divide-zinc-800/80">
            {(owned.data ?? []).map((s) => (
              <li key={s.uuid} className="flex flex-wrap items-center gap-2 py-2">
                <Link to={`/admin/servers/${s.id}`} className="font-medium break-all text-sky-400 hover:text-sky-300">
                  {s.name}
                </Link>
                {s.status === 'suspended' && <Badge tone="danger">{t('adminUsers.suspended')}</Badge>}
                {s.status === 'installing' && <Badge tone="info">{t('adminUsers.installing')}</Badge>}
              </li>
            ))}
          </ul>
        )}
      </Card>

      <UserFormDialog user={user} {...dialog('edit')} />
      <PasswordLinkDialog user={user} {...dialog('password')} onDone={setLink} />
      <DisableTwoFactorDialog user={user} {...dialog('two-factor')} />
      <DeleteUserDialog user={user} {...dialog('delete')} onDeleted={() => void navigate('/admin/users', { replace: true })} />
    </div>
  );
}
