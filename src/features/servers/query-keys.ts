/*
 * The keys of one server's queries, apart from the queries themselves: the app-wide query client
 * needs them on every page, the server API module (and the contracts it pulls in) only server pages.
 */

/** The root of every key about one server (see serverQueries). */
export const serverRootKey = (routeId: string) => ['server', routeId] as const;

/** The key of one server's detail query. */
export const serverDetailKey = (routeId: string) => [...serverRootKey(routeId), 'detail'] as const;
