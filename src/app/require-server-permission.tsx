import type { ReactNode } from 'react';
import type { PermissionCheck } from '../contract/permissions';
import { useCan } from '../lib/permissions';
import { ErrorState } from '../components/ui/states';
import { ApiError } from '../lib/http';

const FORBIDDEN = new ApiError(403, [{ code: 'AccessDeniedHttpException', status: '403', detail: 'This action is unauthorized.' }]);

/** Guards a server page with the permission its route declares (same string the nav uses). */
export function RequireServerPermission({ permission, children }: { permission: PermissionCheck | null; children: ReactNode }) {
  const allowed = useCan(permission ?? []);
  if (!allowed) return <ErrorState error={FORBIDDEN} />;
  return <>{children}</>;
}
