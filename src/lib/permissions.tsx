import { createContext, Fragment, useCallback, useContext, useMemo, type ReactNode } from 'react';
import { permits, type PermissionCheck } from '../contract/permissions';
import { cn } from '../components/ui/cn';
import { useLocale } from './i18n/catalog';
import { T, useT } from './messages';
import { permissionMessage } from './permission-messages';

/** A permission's (or `group.*`'s) one-line description, or undefined when there is none to show. */
export type DescribePermission = (permission: string) => string | undefined;

interface ServerPermissions {
  granted: readonly string[];
  describe: DescribePermission;
}

/**
 * Describes permissions in the language shown. In English, the panel's own text (`panel`, its
 * catalogue flattened), so against a reference panel it reads as that panel says, and nothing
 * before the catalogue has loaded. In other languages, our messages, and the panel's English for a
 * permission we have no words for.
 */
export function usePermissionDescriber(panel: Readonly<Record<string, string>> | undefined): DescribePermission {
  const t = useT();
  const locale = useLocale();
  return useCallback(
    (permission: string) => {
      const message = locale === 'en' ? undefined : permissionMessage(permission);
      if (message) return t(message);
      return panel && Object.hasOwn(panel, permission) ? panel[permission] : undefined;
    },
    [t, locale, panel],
  );
}

/**
 * The current server's permission strings, as the server reports them in
 * `meta.user_permissions` (`*` for owners and admins). The server refuses anyway; this only
 * decides which controls are shown, and what the hints say about the others.
 */
const ServerPermissionsContext = createContext<ServerPermissions>({ granted: [], describe: () => undefined });

export function ServerPermissionsProvider({
  permissions,
  descriptions = NO_DESCRIPTIONS,
  children,
}: {
  permissions: readonly string[];
  /** The panel's catalogue flattened (`flattenCatalogue`), once loaded. */
  descriptions?: Readonly<Record<string, string>>;
  children: ReactNode;
}) {
  const describe = usePermissionDescriber(descriptions);
  const value = useMemo(() => ({ granted: permissions, describe }), [permissions, describe]);
  return <ServerPermissionsContext.Provider value={value}>{children}</ServerPermissionsContext.Provider>;
}

const NO_DESCRIPTIONS: Readonly<Record<string, string>> = {};

type Wanted = PermissionCheck | readonly PermissionCheck[];

/** The current server's permission strings as reported (for checking many at once). */
export function useServerPermissions(): readonly string[] {
  return useContext(ServerPermissionsContext).granted;
}

/** The wanted permissions the caller lacks, in the order asked. */
export function useMissingPermissions(permission: Wanted): PermissionCheck[] {
  const { granted } = useContext(ServerPermissionsContext);
  const wanted = typeof permission === 'string' ? [permission] : permission;
  return wanted.filter((p) => !permits(granted, p));
}

export function useCan(permission: Wanted): boolean {
  return useMissingPermissions(permission).length === 0;
}

/**
 * Renders its children with the permission; without it the fallback, or with `hint` a line
 * saying which permission is missing.
 */
export function Can({
  permission,
  children,
  fallback = null,
  hint = false,
}: {
  permission: Wanted;
  children: ReactNode;
  fallback?: ReactNode;
  hint?: boolean;
}) {
  if (useCan(permission)) return <>{children}</>;
  return hint ? <PermissionHint permission={permission} /> : <>{fallback}</>;
}

/**
 * Why a control is missing or disabled: "Needs the file.create permission", with its description
 * (`usePermissionDescriber`). Nothing when every permission is held (owners and admins never see
 * one). Give it an `id` and point a disabled control's `aria-describedby` at it. Several controls
 * share one hint naming each missing permission.
 */
export function PermissionHint({ permission, id, className }: { permission: Wanted; id?: string; className?: string }) {
  const t = useT();
  const { describe } = useContext(ServerPermissionsContext);
  const missing = useMissingPermissions(permission);
  if (missing.length === 0) return null;
  const described = missing.flatMap((p) => {
    const description = describe(p);
    return description ? [t('lib.permission.described', { permission: p, description })] : [];
  });
  const first = missing[0] ?? '';
  const single = missing.length === 1 ? describe(first) : undefined;
  return (
    <p id={id} role="note" className={cn('flex items-start gap-1.5 text-xs text-zinc-500', className)} title={described.join('\n') || undefined}>
      <LockIcon />
      <span>
        {missing.length > 1 ? (
          <T k="lib.permission.needsMany" values={{ permissions: <PermissionList permissions={missing} /> }} />
        ) : (
          <T
            k={first.endsWith('.*') ? 'lib.permission.needsGroup' : 'lib.permission.needsOne'}
            values={{ permission: <PermissionCode name={first} /> }}
          />
        )}
        {single ? (
          <span className="text-zinc-600"> · {single}</span>
        ) : (
          described.length > 0 && <span className="sr-only">{t('lib.permission.descriptions', { list: described.join('; ') })}</span>
        )}
      </span>
    </p>
  );
}

function PermissionCode({ name }: { name: string }) {
  return <code className="rounded bg-zinc-800/80 px-1 font-mono text-[11px] text-zinc-300">{name}</code>;
}

/** "a, b and c" in the language shown, each name in code. */
function PermissionList({ permissions }: { permissions: readonly string[] }) {
  const locale = useLocale();
  // en-GB: the UI's English has no comma before "and".
  const parts = new Intl.ListFormat(locale === 'en' ? 'en-GB' : locale, { type: 'conjunction' }).formatToParts(permissions);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>{part.type === 'element' ? <PermissionCode name={part.value} /> : part.value}</Fragment>
      ))}
    </>
  );
}

function LockIcon() {
  return (
    <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="mt-px size-3.5 shrink-0">
      <path
        fillRule="evenodd"
        d="M10 1a4.5 4.5 0 0 0-4.5 4.5V9H5a2 2 0 0 0-2 2v6a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-6a2 2 0 0 0-2-2h-.5V5.5A4.5 4.5 0 0 0 10 1Zm3 8V5.5a3 3 0 1 0-6 0V9h6Z"
        clipRule="evenodd"
      />
    </svg>
  );
}

/** Flattens the panel's catalogue (group → keys) into what `ServerPermissionsProvider` takes. */
export function flattenCatalogue(catalogue: Readonly<Record<string, { description: string; keys: Readonly<Record<string, string>> }>>) {
  const out: Record<string, string> = {};
  for (const [group, { description, keys }] of Object.entries(catalogue)) {
    out[`${group}.*`] = description;
    for (const [key, text] of Object.entries(keys)) out[`${group}.${key}`] = text;
  }
  return out;
}
