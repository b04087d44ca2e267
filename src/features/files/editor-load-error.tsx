import { Link } from 'react-router';
import { describeError } from '../../components/ui/states';
import { formatBytes } from '../../lib/format';
import { useLocale } from '../../lib/i18n/catalog';
import { ApiError } from '../../lib/http';
import { useT } from './messages';

/** Why a file could not be opened, with a way out: download it instead, or back to its folder. */
export function EditorLoadError({
  error,
  onDownload,
  folderHref,
  onRetry,
}: {
  error: unknown;
  onDownload: (() => void) | null;
  folderHref: string;
  onRetry: () => void;
}) {
  const t = useT();
  const locale = useLocale();
  const status = error instanceof ApiError ? error.status : 0;
  const tooLarge = error instanceof ApiError && (error.code === 'FileSizeTooLargeException' || (status === 400 && /too large/i.test(error.message)));
  let title = describeError(error).title;
  let detail = describeError(error).detail;
  if (tooLarge) {
    title = t('files.editor.tooLargeTitle');
    const max = error.errors[0]?.meta?.max_bytes;
    detail = max === undefined ? t('files.editor.tooLargeDetailNoLimit') : t('files.editor.tooLargeDetail', { size: formatBytes(max, locale) });
  } else if (status === 404) {
    title = t('files.editor.missingTitle');
    detail = t('files.editor.missingDetail');
  }
  return (
    <div role="alert" className="mx-auto my-8 max-w-lg rounded-lg bg-zinc-900 p-6 text-center ring-1 ring-zinc-800">
      <h3 className="text-lg font-semibold text-white">{title}</h3>
      <p className="mt-2 text-sm text-zinc-400">{detail}</p>
      <div className="mt-4 flex flex-wrap items-center justify-center gap-4 text-sm font-medium">
        {/* Neither a download nor a retry helps with a refusal (403) or a server state (409). */}
        {onDownload && ![403, 404, 409].includes(status) && (
          <button type="button" onClick={onDownload} className="rounded-md bg-sky-700 px-3 py-1.5 text-always-white hover:bg-sky-800">
            {t('files.download')}
          </button>
        )}
        {!tooLarge && ![403, 404, 409].includes(status) && (
          <button type="button" onClick={onRetry} className="text-sky-400 hover:text-sky-300">
            {t('files.retry')}
          </button>
        )}
        <Link to={folderHref} className="text-sky-400 hover:text-sky-300">
          {t('files.editor.backToFolder')}
        </Link>
      </div>
    </div>
  );
}
