import { useMemo, useState, type KeyboardEvent } from 'react';
import { loadHistory, pushHistory, step } from './command-history';
import { useShortcuts, type ShortcutGroup } from '../../lib/shortcuts';
import { useT } from './messages';

/**
 * The command line below the terminal: Enter sends, ↑/↓ walk this server's history (kept in the
 * browser). `disabledReason` disables the field and shows below it.
 */
export function CommandInput({
  serverUuid,
  onSend,
  disabledReason,
}: {
  serverUuid: string;
  onSend: (command: string) => boolean;
  disabledReason: string | null;
}) {
  const t = useT();
  const keys = useMemo<ShortcutGroup>(
    () => ({
      title: t('console.title'),
      shortcuts: [
        { keys: [['Enter']], description: t('console.keys.send') },
        { keys: [['↑'], ['↓']], description: t('console.keys.history') },
      ],
    }),
    [t],
  );
  useShortcuts(keys);
  const [value, setValue] = useState('');
  const [history, setHistory] = useState(() => loadHistory(serverUuid));
  const [index, setIndex] = useState(history.length);
  const [draft, setDraft] = useState('');

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      e.preventDefault();
      const from = index === history.length ? value : draft;
      if (index === history.length) setDraft(value);
      const next = step(history, index, e.key === 'ArrowUp' ? -1 : 1, from);
      setIndex(next.index);
      setValue(next.value);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const command = value.trim();
      if (!command || !onSend(command)) return;
      const kept = pushHistory(serverUuid, command);
      setHistory(kept);
      setIndex(kept.length);
      setValue('');
      setDraft('');
    }
  }

  const reasonId = `${serverUuid}-command-reason`;
  return (
    <div className="border-t border-zinc-800 bg-zinc-950 px-3 py-2">
      <div className="flex items-center gap-2">
        <span aria-hidden="true" className="font-mono text-sky-400">
          &gt;
        </span>
        <input
          type="text"
          aria-label={t('console.command.label')}
          aria-describedby={disabledReason ? reasonId : undefined}
          placeholder={t('console.command.placeholder')}
          disabled={disabledReason !== null}
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            setIndex(history.length);
          }}
          onKeyDown={onKeyDown}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          className="min-h-11 min-w-0 flex-1 bg-transparent font-mono text-base text-zinc-100 placeholder:text-zinc-500 outline-none disabled:cursor-not-allowed disabled:placeholder:text-zinc-600 sm:min-h-9 sm:text-sm"
        />
      </div>
      {disabledReason && (
        <p id={reasonId} className="pb-1 text-xs text-zinc-400">
          {disabledReason}
        </p>
      )}
    </div>
  );
}
