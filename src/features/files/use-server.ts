import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { serverQueries } from '../servers/api';

/**
 * The server of the current route: `id` is the URL's identifier (for links), `uuid` the long id
 * the file endpoints are called with (as the reference SPA does). The server layout has usually
 * loaded it already, so this reads the cache.
 */
export function useServer() {
  const { id = '' } = useParams();
  const query = useQuery(serverQueries.detail(id));
  return { id, uuid: query.data?.attributes.uuid ?? null, query };
}
