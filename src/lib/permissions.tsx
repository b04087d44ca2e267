import { createContext, useContext, type ReactNode } from 'react';
import { permits, type PermissionCheck } from '../contract/permissions';

/**
 * The current server's permission strings, as the server reports them in
 * `meta.user_permissions` (`*` for owners and admins). The server refuses anyway; this only
 * decides which controls are shown.
 */
const ServerPermissionsContext = createContext<readonly string[]>([]);

export function ServerPermissionsProvider({ permissions, children }: { permissions: readonly string[]; children: ReactNode }) {
  return <ServerPermissionsContext.Provider value={permissions}>{children}</ServerPermissionsContext.Provider>;
}

/** The current server's permission strings as reported (for checking many at once). */
export function useServerPermissions(): readonly string[] {
  return useContext(ServerPermissionsContext);
}

export function useCan(permission: PermissionCheck | readonly PermissionCheck[]): boolean {
  const granted = useContext(ServerPermissionsContext);
  const wanted = typeof permission === 'string' ? [permission] : permission;
  return wanted.every((p) => permits(granted, p));
}

export function Can({
  permission,
  children,
  fallback = null,
}: {
  permission: PermissionCheck | readonly PermissionCheck[];
  children: ReactNode;
  fallback?: ReactNode;
}) {
  return useCan(permission) ? <>{children}</> : <>{fallback}</>;
}
