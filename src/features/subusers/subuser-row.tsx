import type { Subuser } from '../../contract/subusers';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { grantedCount } from './api';
import { Avatar } from './avatar';
import { useT } from './messages';

/** A subuser: who, two-factor, how many permissions; edit (or view) and delete for those allowed, never on oneself. */
export function SubuserRow({
  user,
  self,
  canUpdate,
  canDelete,
  onEdit,
  onDelete,
}: {
  user: Subuser;
  self: boolean;
  canUpdate: boolean;
  canDelete: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const t = useT();
  const count = grantedCount(user);
  return (
    <li aria-label={user.email} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
      <Avatar name={user.username} />
      <div className="min-w-0 flex-1 basis-48">
        <p className="flex flex-wrap items-center gap-2 font-medium text-zinc-100">
          <span className="break-all">{user.username}</span>
          {self && <Badge tone="info">{t('subusers.row.you')}</Badge>}
        </p>
        <p className="text-sm break-all text-zinc-400">{user.email}</p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={user['2fa_enabled'] ? 'success' : 'neutral'}>
          {t(user['2fa_enabled'] ? 'subusers.row.twoFactorOn' : 'subusers.row.twoFactorOff')}
        </Badge>
        <Badge>{t('subusers.row.permissions', { count })}</Badge>
      </div>
      {self ? (
        <p className="text-xs text-zinc-400">{t('subusers.row.self')}</p>
      ) : (
        <div className="flex gap-2">
          <Button
            variant="secondary"
            size="sm"
            onClick={onEdit}
            aria-label={t(canUpdate ? 'subusers.row.editLabel' : 'subusers.row.viewLabel', { email: user.email })}
          >
            {t(canUpdate ? 'subusers.row.edit' : 'subusers.view.title')}
          </Button>
          {canDelete && (
            <Button variant="ghost" size="sm" onClick={onDelete} aria-label={t('subusers.row.deleteLabel', { email: user.email })}>
              {t('subusers.delete')}
            </Button>
          )}
        </div>
      )}
    </li>
  );
}
