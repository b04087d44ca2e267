import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { databaseEndpoints, type ServerDatabase } from '../../contract/databases';
import { ApiError, call } from '../../lib/http';
import { serverQueries, type ServerRef } from '../servers/api';

/*
 * The database endpoints. The list sits under the server's key root, asked with `include=password`
 * only by callers who may view passwords (the panel would drop it silently anyway). A rotation
 * writes the returned database (with its new password) into the list at once.
 */

type DatabaseList = Awaited<ReturnType<typeof listDatabases>>;

const listDatabases = (server: ServerRef, withPassword: boolean, signal?: AbortSignal) =>
  call(databaseEndpoints.list, { signal, params: { server: server.uuid }, query: { include: withPassword ? 'password' : undefined } });

export const databaseQueries = {
  all: (server: ServerRef) => [...serverQueries.root(server.routeId), 'databases'] as const,
  list: (server: ServerRef, withPassword: boolean) =>
    queryOptions({
      queryKey: [...databaseQueries.all(server), { withPassword }] as const,
      queryFn: ({ signal }) => listDatabases(server, withPassword, signal),
    }),
};

/** The password sent with a database, or null when it was not (not asked for, or not allowed). */
export function passwordOf(database: ServerDatabase): string | null {
  const p = database.relationships?.password;
  return p && p.object === 'database_password' ? p.attributes.password : null;
}

export const endpointOf = (d: ServerDatabase) => `${d.host.address}:${d.host.port}`;

/** `mysql://` and JDBC connection strings; the password is in them only when given. */
export function connectionStrings(d: ServerDatabase, password: string | null): { url: string; jdbc: string } {
  const credentials = `${encodeURIComponent(d.username)}${password === null ? '' : `:${encodeURIComponent(password)}`}@`;
  const target = `${endpointOf(d)}/${encodeURIComponent(d.name)}`;
  return { url: `mysql://${credentials}${target}`, jdbc: `jdbc:mysql://${credentials}${target}` };
}

/** A create refused because the panel has no database host (or none with room) for this server. */
export const isNoHost = (error: unknown) => error instanceof ApiError && error.code === 'NoSuitableDatabaseHostException';

function useRefresh(server: ServerRef) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: databaseQueries.all(server) });
}

export function useCreateDatabase(server: ServerRef) {
  const onSettled = useRefresh(server);
  return useMutation({
    mutationFn: ({ database, remote, signal }: { database: string; remote: string; signal?: AbortSignal }) =>
      call(databaseEndpoints.create, { signal, params: { server: server.uuid }, body: { database, remote } }),
    onSettled,
  });
}

export function useRotatePassword(server: ServerRef) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ database, signal }: { database: ServerDatabase; signal?: AbortSignal }) =>
      call(databaseEndpoints.rotatePassword, { signal, params: { server: server.uuid, database: database.id } }),
    onSuccess: (rotated) =>
      client.setQueriesData<DatabaseList>(
        { queryKey: databaseQueries.all(server) },
        (list) => list && { ...list, data: list.data.map((d) => (d.attributes.id === rotated.attributes.id ? rotated : d)) },
      ),
  });
}

export function useDeleteDatabase(server: ServerRef) {
  const onSettled = useRefresh(server);
  return useMutation({
    mutationFn: ({ database, signal }: { database: ServerDatabase; signal?: AbortSignal }) =>
      call(databaseEndpoints.delete, { signal, params: { server: server.uuid, database: database.id } }),
    onSettled,
  });
}
