import { useParams, useSearchParams } from 'react-router';
import { PageSpinner } from '../../components/ui/spinner';
import { ErrorState } from '../../components/ui/states';
import { FileEditor } from './file-editor';
import { pathFromSplat } from './paths';
import { useServer } from './use-server';

/**
 * /server/:id/file/<path> edits a file; /server/:id/file/<path>?new=1 starts an empty document
 * for a file that does not exist yet (the "New file" dialog sends you there) and creates it on
 * the first save, after which `?new=1` is dropped from the URL.
 */
export function FileEditorPage() {
  const { id, uuid, query } = useServer();
  const file = pathFromSplat(useParams()['*']);
  const [search] = useSearchParams();
  if (!uuid) return query.isError ? <ErrorState error={query.error} /> : <PageSpinner />;
  if (file === '/') return <ErrorState error={new Error('No file was named in the address.')} />;
  return <FileEditor key={file} serverId={id} uuid={uuid} file={file} isNew={search.get('new') === '1'} />;
}
