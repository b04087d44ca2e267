import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { SignJWT } from 'jose';
import type { PortRange } from './allocations';
import { takeFreePort } from './allocations';
import type { NodeDaemons } from './node-daemons';
import { nodeConnection } from './node-tokens';
import { tokenKey } from '../daemon/tokens';
import { DaemonError } from '../daemon/types';
import { writeTransaction, type Db } from '../db';
import { allocations, nodes, servers, serverTransfers } from '../db/repos';
import type { NodeRow, ServerRow } from '../db/schema';
import type { ServerTransferRow } from '../db/schema-transfers';
import { badRequest, conflict, HttpError, notFound, validationError } from '../http/errors';
import type { Clock } from '../lib/time';

/*
 * Moving a server to another node, as the reference panel's admin transfer: the target's ports are
 * reserved (the lowest free of its range, one for every allocation the server has, in one
 * transaction), a JWT is signed with the TARGET node's token, and the SOURCE node is asked to send
 * the files there. The target's report (its daemon event, or Wings' remote call) ends it: on
 * success the server moves to the new node and ports and is deleted from the old node; on failure
 * the reserved ports go back and the server stays where it was, usable. While it runs the server
 * is `is_transferring`, which the client API refuses with 409 as the reference does.
 */

export const ALREADY_TRANSFERRING = 'This server is already being transferred.';
export const SAME_NODE = 'The server is already on this node.';
export const NOT_TRANSFERRING = 'Server is not being transferred.';

export interface TransferDeps {
  db: Db;
  daemons: NodeDaemons;
  clock: Clock;
  /** This panel's public origin: the tokens' issuer, and the address of the local node. */
  panelOrigin: string;
  /** The ports of a node that names none (PANEL_ALLOCATION_PORTS). */
  defaultPorts: PortRange;
  /** Where failures nobody awaits go (the old node would not delete the server). */
  warn: (message: string) => void;
}

/** What ending a transfer needs (a node's report carries no panel origin). */
export type FinishDeps = Pick<TransferDeps, 'db' | 'daemons' | 'clock' | 'warn'>;

const TOKEN_TTL_SECONDS = 15 * 60;
const DELETE_ATTEMPTS = 60;
const DELETE_RETRY_MS = 1000;

/** The transfer token Wings' `/api/transfers` takes: HS256 with the target's key, for one server. */
export async function signTransferToken(target: NodeRow, key: string, serverUuid: string, panelOrigin: string, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  const jti = createHash('sha256').update(serverUuid).digest('hex');
  return new SignJWT({ scope: 'transfer' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', jti })
    .setSubject(serverUuid)
    .setJti(jti)
    .setIssuer(panelOrigin)
    .setAudience(nodeConnection(target, panelOrigin))
    .setIssuedAt(iat)
    .setNotBefore(iat - 5 * 60)
    .setExpirationTime(iat + TOKEN_TTL_SECONDS)
    .sign(tokenKey(key));
}

/** Starts moving `server` to the node named `targetName`; answers once the source has taken it on. */
export async function startTransfer(deps: TransferDeps, serverId: number, targetName: string): Promise<ServerTransferRow> {
  const target = await nodes.findByName(deps.db, targetName);
  if (!target) throw badRequest(`There is no node named ${targetName}.`, 'DisplayException');
  return startTransferTo(deps, serverId, target);
}

/**
 * The target's ports an admin picked (the reference's admin form); without them the lowest free
 * ports of its range are taken, one for every allocation the server holds.
 */
export interface ChosenPorts {
  allocation: number;
  additional: readonly number[];
}

/** Starts moving `server` to `target`; answers once the source has taken it on. */
export async function startTransferTo(deps: TransferDeps, serverId: number, target: NodeRow, chosen?: ChosenPorts): Promise<ServerTransferRow> {
  const { db } = deps;
  const now = deps.clock.now();
  const server = await servers.findById(db, serverId);
  if (!server) throw notFound();
  if (target.id === server.node_id) throw badRequest(SAME_NODE, 'DisplayException');
  const source = await nodes.findById(db, server.node_id);
  if (!source) throw notFound();
  const daemon = deps.daemons.forNode(source);
  if (!daemon.transfers) throw badRequest(`The node ${source.name} cannot send servers to another node.`, 'DisplayException');
  const transfer = await reserve(deps, server, target, now, chosen);
  const token = await signTransferToken(target, deps.daemons.tokenOf(target), server.uuid, deps.panelOrigin, now);
  try {
    await daemon.transfers.send(server.uuid, { url: `${nodeConnection(target, deps.panelOrigin)}/api/transfers`, token: `Bearer ${token}` });
  } catch (error) {
    const reason = error instanceof DaemonError || error instanceof HttpError ? error.message : 'The source node could not be asked.';
    await finishTransfer(deps, server.id, false, reason);
    throw error instanceof DaemonError && error.kind === 'conflict' ? conflict(error.message) : error;
  }
  return transfer;
}

/** The transfer row, the target's ports taken for every allocation the server holds, and the server marked as moving. */
async function reserve(deps: TransferDeps, server: ServerRow, target: NodeRow, now: Date, chosen?: ChosenPorts): Promise<ServerTransferRow> {
  const range = target.port_start !== null && target.port_end !== null ? { start: target.port_start, end: target.port_end } : deps.defaultPorts;
  const ip = target.allocation_ip ?? '127.0.0.1';
  return writeTransaction(deps.db, async (trx) => {
    const fresh = await servers.findById(trx, server.id);
    if (!fresh) throw notFound();
    if (fresh.is_transferring === 1 || (await serverTransfers.running(trx, server.id))) throw conflict(ALREADY_TRANSFERRING);
    const held = (await allocations.ofServers(trx, [server.id])).filter((a) => a.node_id === fresh.node_id);
    const primary = held.find((a) => a.id === fresh.allocation_id);
    if (!primary) throw badRequest('The server has no primary allocation to move.', 'DisplayException');
    const others = held.filter((a) => a !== primary);
    const take = () => takeFreePort(trx, { nodeId: target.id, ip, range, serverId: server.id });
    const newOthers: number[] = [];
    let newPrimary: { id: number };
    if (chosen) {
      newPrimary = await takeChosen(trx, target, server.id, chosen.allocation, 'allocation_id');
      const extra = [...new Set(chosen.additional)].filter((id) => id !== chosen.allocation);
      for (const [i, id] of extra.entries()) newOthers.push((await takeChosen(trx, target, server.id, id, `allocation_additional.${i}`)).id);
    } else {
      newPrimary = await take();
      for (let i = 0; i < others.length; i += 1) newOthers.push((await take()).id);
    }
    await serverTransfers.setTransferring(trx, server.id, true, now);
    return serverTransfers.insert(trx, {
      serverId: server.id,
      oldNode: fresh.node_id,
      newNode: target.id,
      oldAllocation: primary.id,
      newAllocation: newPrimary.id,
      oldAdditional: others.map((a) => a.id),
      newAdditional: newOthers,
      now,
    });
  });
}

/** A free allocation of the target given to the server, or a 422 on `field` (the reference's `exists` rule). */
async function takeChosen(trx: Db, target: NodeRow, serverId: number, id: number, field: string) {
  const row = await allocations.findById(trx, id);
  if (!row || row.node_id !== target.id || row.server_id !== null) {
    throw validationError(field, `The selected ${field.replace(/[._]/g, ' ')} is invalid: it must be a free allocation of the node ${target.name}.`);
  }
  return allocations.assign(trx, id, serverId);
}

/**
 * Ends the server's running transfer; false when none runs (a late or second report). On success
 * the server moves to the new node and ports, and the old node deletes it (a failure there is
 * only logged: the server is on the new node either way) and the new one takes its final
 * configuration; otherwise the reserved ports go back and `reason` is kept.
 */
export async function finishTransfer(deps: FinishDeps, serverId: number, successful: boolean, reason: string | null): Promise<boolean> {
  const { db } = deps;
  const now = deps.clock.now();
  const server = await servers.findById(db, serverId);
  const ended = await writeTransaction(db, async (trx) => {
    const transfer = await serverTransfers.running(trx, serverId);
    if (!transfer || !(await serverTransfers.finish(trx, transfer.id, successful, successful ? null : reason, now))) return null;
    const freed = successful
      ? [transfer.old_allocation, ...serverTransfers.idsOf(transfer.old_additional_allocations)]
      : [transfer.new_allocation, ...serverTransfers.idsOf(transfer.new_additional_allocations)];
    for (const id of freed) await allocations.assign(trx, id, null);
    if (successful) await serverTransfers.moveServer(trx, serverId, transfer.new_node, transfer.new_allocation, now);
    else await serverTransfers.setTransferring(trx, serverId, false, now);
    return transfer;
  });
  if (!ended || !server || !successful) return ended !== null;
  const [oldNode, newNode] = [await nodes.findById(db, ended.old_node), await nodes.findById(db, ended.new_node)];
  if (oldNode) void deleteFromOldNode(deps, oldNode, server.uuid);
  if (newNode)
    await deps.daemons
      .forNode(newNode)
      .servers.sync(server.uuid)
      .catch((error: unknown) => deps.warn(`the transferred server ${server.uuid} could not be synced on ${newNode.name}: ${String(error)}`));
  return true;
}

/**
 * The old node forgets the server. The target reports before its answer has reached the source,
 * which holds the server until then (`conflict`): that is waited out, a minute at most.
 */
async function deleteFromOldNode(deps: FinishDeps, node: NodeRow, uuid: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await deps.daemons.forNode(node).servers.delete(uuid);
    } catch (error) {
      if (!(error instanceof DaemonError && error.kind === 'conflict') || attempt >= DELETE_ATTEMPTS) {
        return deps.warn(`the transferred server ${uuid} could not be deleted from ${node.name}: ${String(error)}`);
      }
      await sleep(DELETE_RETRY_MS);
    }
  }
}

/** The server's running transfer, if any (the remote API answers its target node too). */
export function runningTransfer(db: Db, serverId: number): Promise<ServerTransferRow | undefined> {
  return serverTransfers.running(db, serverId);
}

/** The server's latest transfer, running or ended (the admin area shows it), if it ever had one. */
export function latestTransfer(db: Db, serverId: number): Promise<ServerTransferRow | undefined> {
  return serverTransfers.latestOfServer(db, serverId);
}

/** Why the server's last transfer failed, or null (shown by the CLI). */
export async function lastTransfer(db: Db, id: number): Promise<ServerTransferRow | undefined> {
  return serverTransfers.findById(db, id);
}
