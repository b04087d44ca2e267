import { OperationsTray, type Operation } from '../../components/ui/operations-tray';
import { formatPercent } from '../../lib/format';
import { useLocale } from '../../lib/i18n/catalog';
import { formatBytes } from './format';
import { useT } from './messages';
import type { UploadItem } from './use-uploads';

/** Per-file upload progress and errors, each with cancel or dismiss, in the shared operations tray. */
export function UploadList({ items, onRemove }: { items: UploadItem[]; onRemove: (id: number) => void }) {
  const t = useT();
  const locale = useLocale();
  const operations = items.map((it): Operation => {
    const active = it.status === 'uploading' || it.status === 'queued';
    return {
      id: it.id,
      title: it.name,
      detail: formatBytes(it.size, locale),
      status: it.status === 'uploading' ? 'running' : it.status,
      progress: it.progress,
      progressLabel: t('files.upload.progressLabel', { name: it.name }),
      statusText:
        it.status === 'queued'
          ? t('files.upload.waiting')
          : it.status === 'done'
            ? t('files.upload.uploaded')
            : formatPercent(Math.round(it.progress * 100), locale),
      message: it.error ?? undefined,
      action: {
        label: active ? t('files.cancel') : t('files.dismiss'),
        ariaLabel: active ? t('files.upload.cancelLabel', { name: it.name }) : t('files.upload.dismissLabel', { name: it.name }),
        onClick: () => onRemove(it.id),
      },
    };
  });
  return <OperationsTray label={t('files.upload.trayLabel')} operations={operations} />;
}
