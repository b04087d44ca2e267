import type { ReactNode } from 'react';
import type { PermissionCheck } from '../contract/permissions';
import { PermissionHint, useCan } from '../lib/permissions';
import { ErrorState } from '../components/ui/states';
import { ApiError } from '../lib/http';

const FORBIDDEN = new ApiError(403, [{ code: 'AccessDeniedHttpException', status: '403', detail: 'This action is unauthorized.' }]);

/** Guards a server page with the permission its route declares (same string the nav uses), and says which one it is. */
export function RequireServerPermission({ permission, children }: { permission: PermissionCheck | null; children: ReactNode }) {
  const allowed = useCan(permission ?? []);
  if (!allowed && permission) {
    return <ErrorState error={FORBIDDEN} hint={<PermissionHint permission={permission} className="text-left text-sm" />} />;
  }
  return <>{children}</>;
}
