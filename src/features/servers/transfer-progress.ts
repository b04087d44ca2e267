import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { SOCKET_EVENTS } from '../../contract/websocket';
import type { Server } from '../../contract/servers';
import { useServerSocketEvents } from '../console/api';
import { invalidateServer } from './api';
import { t } from './messages';

/*
 * A transfer's progress as the node's socket tells it (`transfer status`). Wings has said it in
 * several words over its versions: 1.7 and older `starting`, `archived`, then `success` or
 * `failure`; 1.8 and newer `processing`, then `failure`, or `completed` when the panel deletes the
 * server from the old node; a target node `success`. Each is read here; an unknown one is ignored.
 * The panel lets only admins open the socket during a transfer (`admin.websocket.transfer`); for
 * anyone else, or a node that says nothing, the banner keeps its general sentence and the server
 * is asked again every few seconds while it moves (`isSettling`), so the page follows either way.
 */

export type TransferEnd = 'success' | 'failure';

type NoteKey = Parameters<typeof t>[0];

const STATUS_TEXT: Record<string, { note: NoteKey; end: TransferEnd | null }> = {
  pending: { note: 'servers.transfer.pending', end: null },
  starting: { note: 'servers.transfer.starting', end: null },
  processing: { note: 'servers.transfer.processing', end: null },
  archived: { note: 'servers.transfer.archived', end: null },
  cancelling: { note: 'servers.transfer.cancelling', end: null },
  success: { note: 'servers.transfer.finished', end: 'success' },
  completed: { note: 'servers.transfer.finished', end: 'success' },
  failure: { note: 'servers.transfer.failed', end: 'failure' },
  failed: { note: 'servers.transfer.failed', end: 'failure' },
  cancelled: { note: 'servers.transfer.cancelled', end: 'failure' },
};

/** What a `transfer status` value says (in the language of the moment), or null for one this SPA does not know. */
export function transferStatusText(status: string | undefined): { note: string; end: TransferEnd | null } | null {
  const said = status !== undefined && Object.hasOwn(STATUS_TEXT, status) ? STATUS_TEXT[status] : undefined;
  return said ? { note: t(said.note), end: said.end } : null;
}

/**
 * Listens to the server's socket while it moves (`enabled`) and returns the latest status as a
 * short note ("sending the archive…"), or null before the node has said anything. The end of the
 * transfer, either way, reads the server again: its node and allocations have changed, or its
 * `is_transferring` has cleared.
 */
export function useTransferProgress(server: Pick<Server, 'uuid' | 'identifier'>, enabled: boolean): string | null {
  const client = useQueryClient();
  const [note, setNote] = useState<{ uuid: string; text: string } | null>(null);
  // A transfer that ended leaves no note for the next one (state adjusted while rendering, as React advises).
  const [wasEnabled, setWasEnabled] = useState(enabled);
  if (enabled !== wasEnabled) {
    setWasEnabled(enabled);
    if (!enabled) setNote(null);
  }
  useServerSocketEvents(server.uuid, enabled, (event, args) => {
    if (event !== SOCKET_EVENTS.transferStatus) return;
    const said = transferStatusText(args[0]);
    if (!said) return;
    setNote({ uuid: server.uuid, text: said.note });
    if (said.end) void invalidateServer(client, server);
  });
  // A note from another server's page is not shown.
  return enabled && note?.uuid === server.uuid ? note.text : null;
}
