import type { Subuser } from '../../contract/subusers';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { grantedCount } from './api';
import { Avatar } from './avatar';

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
  const count = grantedCount(user);
  return (
    <li aria-label={user.email} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
      <Avatar name={user.username} />
      <div className="min-w-0 flex-1 basis-48">
        <p className="flex flex-wrap items-center gap-2 font-medium text-zinc-100">
          <span className="break-all">{user.username}</span>
          {self && <Badge tone="info">You</Badge>}
        </p>
        <p className="text-sm break-all text-zinc-400">{user.email}</p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={user['2fa_enabled'] ? 'success' : 'neutral'}>{user['2fa_enabled'] ? 'Two-factor on' : 'Two-factor off'}</Badge>
        <Badge>{count === 1 ? '1 permission' : `${count} permissions`}</Badge>
      </div>
      {self ? (
        <p className="text-xs text-zinc-400">This is you: ask the owner to change your permissions.</p>
      ) : (
        <div className="flex gap-2">
          <Button variant="secondary" size="sm" onClick={onEdit} aria-label={`${canUpdate ? 'Edit' : 'View'} permissions of ${user.email}`}>
            {canUpdate ? 'Edit' : 'View permissions'}
          </Button>
          {canDelete && (
            <Button variant="ghost" size="sm" onClick={onDelete} aria-label={`Delete ${user.email}`}>
              Delete
            </Button>
          )}
        </div>
      )}
    </li>
  );
}
