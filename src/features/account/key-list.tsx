import type { ReactNode } from 'react';
import { useT } from './messages';
import { Button } from '../../components/ui/button';

export interface KeyListItem {
  key: string;
  title: string;
  /** The key's identifier or fingerprint, in monospace. */
  id: string;
  detail: ReactNode;
}

/** The account's API keys and SSH keys: one row each, with one action (delete or remove). */
export function KeyList({
  label,
  items,
  action,
  onAction,
}: {
  label: string;
  items: readonly KeyListItem[];
  /** The button's text; its accessible name adds the key's title. */
  action: string;
  onAction: (key: string) => void;
}) {
  const t = useT();
  return (
    <ul aria-label={label} className="divide-y divide-zinc-800/80 rounded-lg ring-1 ring-zinc-800">
      {items.map((item) => (
        <li key={item.key} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between">
          <div className="min-w-0 space-y-1 text-sm">
            <p className="font-medium break-words text-zinc-100">{item.title}</p>
            <p className="font-mono text-xs break-all text-zinc-400">{item.id}</p>
            <p className="text-xs text-zinc-400">{item.detail}</p>
          </div>
          <Button
            size="sm"
            variant="secondary"
            className="self-start sm:self-auto"
            onClick={() => onAction(item.key)}
            aria-label={t('account.keys.action', { action, key: item.title })}
          >
            {action}
          </Button>
        </li>
      ))}
    </ul>
  );
}
