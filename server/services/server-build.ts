import { writeTransaction, type Db } from '../db';
import { eggs, nodes, servers, users } from '../db/repos';
import type { ServerRow } from '../db/schema';
import type { NodeDaemons } from './node-daemons';
import { revokeSocketTokens } from './node-tokens';

/*
 * An operator's change of a server's limits, owner, egg or image (the reference's admin "Build
 * configuration", "Details" and "Startup" forms). The node is given the new configuration at once,
 * and a new owner means the old one's console tokens are refused (T-SESS-5), as the reference does.
 */

export interface BuildChange {
  memory?: number;
  disk?: number;
  cpu?: number;
  ownerId?: number;
  eggId?: number;
  /** One of the egg's images (its value); the new egg's first one when the egg changes without it. */
  image?: string;
}

/** One changed field: what it was and what it is, as activity properties and CLI output show it. */
export interface FieldChange {
  field: 'memory' | 'disk' | 'cpu' | 'owner' | 'egg' | 'image';
  old: string;
  new: string;
}

export class BuildError extends Error {}

export async function changeServerBuild(
  db: Db,
  daemons: NodeDaemons,
  server: ServerRow,
  change: BuildChange,
  now: Date,
): Promise<{ server: ServerRow; changes: FieldChange[]; revoked: boolean }> {
  const egg = await eggs.findById(db, change.eggId ?? server.egg_id);
  if (!egg) throw new BuildError(`No egg numbered ${change.eggId ?? server.egg_id}.`);
  const images = Object.values(egg.docker_images);
  const eggChanged = egg.id !== server.egg_id;
  const image = change.image ?? (eggChanged ? (images[0] ?? server.docker_image) : server.docker_image);
  if (image !== server.docker_image && !images.includes(image)) {
    throw new BuildError(`The image must be one of the egg ${egg.name}'s: ${images.join(', ') || 'none'}; got "${image}".`);
  }
  const owner = change.ownerId === undefined ? undefined : await users.findById(db, change.ownerId);
  const changes: FieldChange[] = [];
  const note = (field: FieldChange['field'], before: string | number, after: string | number) => {
    if (String(before) !== String(after)) changes.push({ field, old: String(before), new: String(after) });
  };
  for (const field of ['memory', 'disk', 'cpu'] as const) note(field, server[field], change[field] ?? server[field]);
  if (owner) note('owner', (await users.emailOf(db, server.owner_id)) ?? String(server.owner_id), owner.email);
  if (eggChanged) note('egg', (await eggs.findById(db, server.egg_id))?.name ?? String(server.egg_id), egg.name);
  note('image', server.docker_image, image);
  if (changes.length === 0) return { server, changes, revoked: false };

  const updated = await writeTransaction(db, (trx) =>
    servers.setBuild(
      trx,
      server.id,
      {
        memory: change.memory,
        disk: change.disk,
        cpu: change.cpu,
        owner_id: owner?.id,
        ...(eggChanged ? { egg_id: egg.id, startup: egg.startup } : {}),
        docker_image: image,
      },
      now,
    ),
  );
  const node = await nodes.findById(db, server.node_id);
  const daemon = node ? daemons.forNode(node) : undefined;
  // The change stands even where the node cannot be told now (the reference logs and goes on):
  // the node pulls the configuration before the server's next start and when it boots.
  if (daemon) await daemon.servers.sync(server.uuid).catch(() => undefined);
  let revoked = false;
  if (daemon && owner && owner.id !== server.owner_id) {
    revoked = await revokeSocketTokens(daemon, server.uuid, server.owner_id).then(
      () => true,
      () => false,
    );
  }
  return { server: updated, changes, revoked };
}
