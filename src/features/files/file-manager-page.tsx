import { useParams } from 'react-router';
import { useServerRef } from '../servers/api';
import { FileManager } from './file-manager';
import { pathFromSplat } from './paths';

/**
 * /server/:id/files/<path>: the directory lives in the URL (each segment URI-encoded), so back,
 * forward, reload and shared links all land on the same folder.
 */
export function FileManagerPage() {
  const server = useServerRef();
  const dir = pathFromSplat(useParams()['*']);
  return <FileManager server={server} dir={dir} />;
}
