import { OperationsTray, type Operation } from '../../components/ui/operations-tray';
import { formatBytes } from './format';
import type { UploadItem } from './use-uploads';

/** Per-file upload progress and errors, each with cancel or dismiss, in the shared operations tray. */
export function UploadList({ items, onRemove }: { items: UploadItem[]; onRemove: (id: number) => void }) {
  const operations = items.map((it): Operation => {
    const active = it.status === 'uploading' || it.status === 'queued';
    return {
      id: it.id,
      title: it.name,
      detail: formatBytes(it.size),
      status: it.status === 'uploading' ? 'running' : it.status,
      progress: it.progress,
      progressLabel: `Upload of ${it.name}`,
      statusText: it.status === 'queued' ? 'Waiting' : it.status === 'done' ? 'Uploaded' : `${Math.round(it.progress * 100)}%`,
      message: it.error ?? undefined,
      action: {
        label: active ? 'Cancel' : 'Dismiss',
        ariaLabel: `${active ? 'Cancel upload of' : 'Dismiss'} ${it.name}`,
        onClick: () => onRemove(it.id),
      },
    };
  });
  return <OperationsTray label="Uploads" operations={operations} />;
}
