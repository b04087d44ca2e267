import { SearchInput } from '../../components/ui/search-input';
import { cn } from '../../components/ui/cn';
import type { SearchParamInput } from '../../lib/use-search-param';
import type { ActivitySort } from './api';
import { useT } from './messages';

/**
 * The event filter (`?event=`, applied after typing stops, or at once on Enter) and the sort
 * order. The URL holds the applied values; the box keeps its own draft while the user types.
 */
export function ActivityToolbar({
  filter,
  sort,
  onSortChange,
  placeholder,
}: {
  placeholder?: string;
  filter: SearchParamInput;
  sort: ActivitySort;
  onSortChange: (sort: ActivitySort) => void;
}) {
  const t = useT();
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <SearchInput
        label={t('activity.filter')}
        showLabel
        value={filter.draft}
        onValueChange={filter.setDraft}
        onCommit={filter.commit}
        placeholder={placeholder ?? t('activity.placeholder.server')}
        maxLength={191}
        className="min-w-0 flex-1 sm:max-w-md"
        inputClassName="font-mono text-sm"
      />
      <div
        role="group"
        aria-label={t('activity.sort')}
        className="inline-flex shrink-0 flex-wrap self-start rounded-md bg-zinc-900 p-0.5 ring-1 ring-zinc-700 ring-inset sm:self-auto"
      >
        {(
          [
            ['-timestamp', t('activity.newest')],
            ['timestamp', t('activity.oldest')],
          ] as const
        ).map(([value, label]) => (
          <button
            key={value}
            type="button"
            aria-pressed={sort === value}
            onClick={() => onSortChange(value)}
            className={cn(
              'min-h-9 rounded px-3 text-sm font-medium transition-colors',
              sort === value ? 'bg-sky-700 text-always-white' : 'text-zinc-300 hover:bg-zinc-800 hover:text-white',
            )}
          >
            {label}
          </button>
        ))}
      </div>
    </div>
  );
}
