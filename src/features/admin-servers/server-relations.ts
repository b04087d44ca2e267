import type { ApplicationServer } from '../../contract/admin-servers';
import { t } from './messages';

/*
 * The names the list and page show beside a server, read from its includes. Their attributes
 * belong to other areas' contracts and arrive as plain records here, so each field is checked
 * where it is read; a missing one shows as a dash, never `undefined`.
 */

type Attributes = Record<string, unknown>;

function included(server: ApplicationServer, name: string): Attributes | Attributes[] | null {
  const rel = server.relationships?.[name];
  if (!rel || !('attributes' in rel || 'data' in rel)) return null;
  if ('data' in rel && Array.isArray(rel.data)) return rel.data.map((d) => d.attributes);
  return 'attributes' in rel && rel.attributes && typeof rel.attributes === 'object' ? (rel.attributes as Attributes) : null;
}

const text = (a: Attributes | null | undefined, key: string): string | null => {
  const v = a?.[key];
  return typeof v === 'string' || typeof v === 'number' ? String(v) : null;
};

const one = (server: ApplicationServer, name: string): Attributes | null => {
  const found = included(server, name);
  return Array.isArray(found) ? null : found;
};

export interface ServerAllocation {
  id: number;
  address: string;
}

/** The server's allocations as `ip:port` (the alias when it has one), primary first. */
export function allocationsOf(server: ApplicationServer): ServerAllocation[] {
  const found = included(server, 'allocations');
  const rows = Array.isArray(found) ? found : [];
  const list = rows.flatMap((a) => {
    const id = a.id;
    const port = text(a, 'port');
    if (typeof id !== 'number' || port === null) return [];
    return [{ id, address: `${text(a, 'alias') ?? text(a, 'ip') ?? '?'}:${port}` }];
  });
  return list.sort((a, b) => (a.id === server.allocation ? -1 : b.id === server.allocation ? 1 : a.id - b.id));
}

export const ownerOf = (server: ApplicationServer) => {
  const user = one(server, 'user');
  return { email: text(user, 'email'), username: text(user, 'username') };
};
export const nodeNameOf = (server: ApplicationServer) => text(one(server, 'node'), 'name');
export const eggNameOf = (server: ApplicationServer) => text(one(server, 'egg'), 'name');
export const addressOf = (server: ApplicationServer) => allocationsOf(server)[0]?.address ?? null;

/** The state worth a badge: suspended, installing, a failed install, a restore; null when it just runs. Its caller re-renders with the language (useT). */
export function statusLabel(server: ApplicationServer): { label: string; tone: 'warning' | 'danger' | 'info' } | null {
  switch (server.status) {
    case 'suspended':
      return { label: t('adminServers.status.suspended'), tone: 'danger' };
    case 'installing':
      return { label: t('adminServers.status.installing'), tone: 'info' };
    case 'install_failed':
      return { label: t('adminServers.status.installFailed'), tone: 'danger' };
    case 'reinstall_failed':
      return { label: t('adminServers.status.reinstallFailed'), tone: 'danger' };
    case 'restoring_backup':
      return { label: t('adminServers.status.restoring'), tone: 'info' };
    case null:
      return server.suspended ? { label: t('adminServers.status.suspended'), tone: 'danger' } : null;
    default:
      return { label: server.status, tone: 'warning' };
  }
}

/** The egg's images by display name (the startup form offers them). */
export function imagesOf(server: ApplicationServer): Record<string, string> {
  const images = one(server, 'egg')?.docker_images;
  if (!images || typeof images !== 'object') return {};
  return Object.fromEntries(Object.entries(images).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

export interface ServerVariable {
  name: string;
  description: string;
  env: string;
  rules: string;
  /** The server's value (a new server's: the egg's default). */
  value: string;
  defaultValue: string;
}

/** The egg's variables with the server's values and their rules (include=variables). */
export function variablesOf(server: ApplicationServer): ServerVariable[] {
  const found = included(server, 'variables');
  return (Array.isArray(found) ? found : []).flatMap((v) => {
    const env = text(v, 'env_variable');
    if (env === null) return [];
    return [
      {
        name: text(v, 'name') ?? env,
        description: text(v, 'description') ?? '',
        env,
        rules: text(v, 'rules') ?? '',
        value: text(v, 'server_value') ?? text(v, 'default_value') ?? '',
        defaultValue: text(v, 'default_value') ?? '',
      },
    ];
  });
}
