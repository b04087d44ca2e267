import { useParams } from 'react-router';
import { PageSpinner } from '../../components/ui/spinner';
import { ErrorState } from '../../components/ui/states';
import { FileManager } from './file-manager';
import { pathFromSplat } from './paths';
import { useServer } from './use-server';

/**
 * /server/:id/files/<path>: the directory lives in the URL (each segment URI-encoded), so back,
 * forward, reload and shared links all land on the same folder.
 */
export function FileManagerPage() {
  const { id, uuid, query } = useServer();
  const dir = pathFromSplat(useParams()['*']);
  if (!uuid) return query.isError ? <ErrorState error={query.error} /> : <PageSpinner />;
  return <FileManager serverId={id} uuid={uuid} dir={dir} />;
}
