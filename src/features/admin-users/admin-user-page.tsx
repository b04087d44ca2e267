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
import { adminServerQueries } from '../admin-servers/api';
import { usePanelSendsNoMail } from '../admin-settings/api';
import { adminUserQueries } from './api';
import { DeleteUserDialog, DisableTwoFactorDialog, PasswordLinkDialog, type PasswordLinkResult } from './user-action-dialogs';
import { UserFormDialog } from './user-form-dialog';
import { pageTitle } from '../../lib/panel-name';

type Open = 'edit' | 'password' | 'two-factor' | 'delete' | null;

/** What the users page says it did on the way here (a user just created). */
function createdNotice(state: unknown, noMail: boolean): string | null {
  const created = typeof state === 'object' && state !== null && 'created' in state ? state.created : null;
  if (created === 'invited' && noMail)
    return 'The user was created without a password. This panel sends no mail: use “Password link” to get a link to set one, and pass it on.';
  if (created === 'invited') return 'The user was created and sent an invitation e-mail with a link to set a password.';
  return created === 'created' ? 'The user was created with the password you chose.' : null;
}

/** One account: its details, and what a root admin may do to it (edit, password link, two-factor off, delete). */
export function AdminUserPage() {
  const { userId = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const query = useQuery(adminUserQueries.detail(userId));
  const owned = useQuery(adminServerQueries.ofUser(userId));
  const [open, setOpen] = useState<Open>(null);
  const [link, setLink] = useState<PasswordLinkResult | null>(null);
  const notice = createdNotice(location.state, usePanelSendsNoMail());
  const name = query.data?.username;
  useEffect(() => {
    if (name) document.title = pageTitle(name, 'Users', 'Admin');
  }, [name]);

  if (query.isPending) return <PageSpinner />;
  if (query.isError) return <ErrorState error={query.error} />;
  const user = query.data;
  const dialog = (which: Exclude<Open, null>) => ({ open: open === which, onOpenChange: (o: boolean) => setOpen(o ? which : null) });

  return (
    <div className="space-y-4">
      <Link to="/admin/users" className="text-sm font-medium text-sky-400 hover:text-sky-300">
        ← All users
      </Link>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="flex flex-wrap items-center gap-2 text-lg font-semibold break-all text-white">
          {user.username}
          {user.root_admin && <Badge tone="info">Root admin</Badge>}
        </h2>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={() => setOpen('edit')}>
            Edit
          </Button>
          <Button variant="secondary" onClick={() => setOpen('password')}>
            Password link
          </Button>
          {user['2fa'] && (
            <Button variant="secondary" onClick={() => setOpen('two-factor')}>
              Turn off two-factor
            </Button>
          )}
          <Button variant="danger" onClick={() => setOpen('delete')}>
            Delete
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
            <p>A link to set a new password was mailed to {user.email}.</p>
          ) : link.link ? (
            <>
              <p>This panel sends no mail: pass this link on to {user.email}. It works once and expires.</p>
              <p className="flex flex-wrap items-center gap-2">
                <code className="min-w-0 font-mono text-xs break-all text-zinc-100">{link.link}</code>
                <CopyButton value={link.link} label="Copy link" />
              </p>
            </>
          ) : (
            <p>The link was made but not mailed, and the panel did not return it.</p>
          )}
          <Button variant="ghost" size="sm" onClick={() => setLink(null)}>
            Dismiss
          </Button>
        </div>
      )}

      <Card title="Account">
        <DetailList>
          <DetailItem term="E-mail">{user.email}</DetailItem>
          <DetailItem term="Name">{`${user.first_name} ${user.last_name}`.trim() || '—'}</DetailItem>
          <DetailItem term="Two-factor">{user['2fa'] ? 'On' : 'Off'}</DetailItem>
          <DetailItem term="Language">{user.language}</DetailItem>
          <DetailItem term="External ID">{user.external_id ?? '—'}</DetailItem>
          <DetailItem term="ID">
            {user.id} · <span className="break-all">{user.uuid}</span>
          </DetailItem>
          <DetailItem term="Created">{formatDateTime(user.created_at)}</DetailItem>
          <DetailItem term="Changed">{formatDateTime(user.updated_at)}</DetailItem>
        </DetailList>
      </Card>

      <Card title="Servers">
        {owned.isError ? (
          <p className="text-sm text-red-400">The servers could not be loaded: {owned.error.message}</p>
        ) : owned.data?.length === 0 ? (
          <p className="text-sm text-zinc-400">This user owns no server.</p>
        ) : (
          <ul aria-label="Servers of this user" className="divide-y divide-zinc-800/80">
            {(owned.data ?? []).map((s) => (
              <li key={s.uuid} className="flex flex-wrap items-center gap-2 py-2">
                <Link to={`/admin/servers/${s.id}`} className="font-medium break-all text-sky-400 hover:text-sky-300">
                  {s.name}
                </Link>
                {s.status === 'suspended' && <Badge tone="danger">Suspended</Badge>}
                {s.status === 'installing' && <Badge tone="info">Installing</Badge>}
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
