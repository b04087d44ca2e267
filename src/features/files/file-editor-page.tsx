import { useParams, useSearchParams } from 'react-router';
import { ErrorState } from '../../components/ui/states';
import { useServerRef } from '../servers/api';
import { FileEditor } from './file-editor';
import { useT } from './messages';
import { pathFromSplat } from './paths';

/**
 * /server/:id/file/<path> edits a file; /server/:id/file/<path>?new=1 starts an empty document
 * for a file that does not exist yet (the "New file" dialog sends you there) and creates it on
 * the first save, after which `?new=1` is dropped from the URL.
 */
export function FileEditorPage() {
  const server = useServerRef();
  const file = pathFromSplat(useParams()['*']);
  const [search] = useSearchParams();
  const t = useT();
  if (file === '/') return <ErrorState error={new Error(t('files.editor.noFile'))} />;
  return <FileEditor key={file} server={server} file={file} isNew={search.get('new') === '1'} />;
}
