import { Fragment } from 'react';
import { Dialog } from '../../components/ui/dialog';
import { keyLabel, useDeclaredShortcuts } from '../../lib/shortcuts';
import { useT } from './messages';

/** "?": every shortcut the page on screen has declared (lib/shortcuts.ts), by what it acts on. */
export function ShortcutSheet({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const groups = useDeclaredShortcuts();
  const t = useT();
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t('palette.shortcuts.title')} description={t('palette.shortcuts.description')}>
      <div className="space-y-5">
        {groups.map((group) => (
          <section key={group.title} aria-label={group.title}>
            <h3 className="mb-2 text-xs font-semibold tracking-wide text-zinc-400 uppercase">{group.title}</h3>
            <dl className="divide-y divide-zinc-800/80">
              {group.shortcuts.map((s) => (
                <div key={s.description} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-1.5">
                  <dt className="min-w-40 flex-1 text-sm text-zinc-200">{s.description}</dt>
                  <dd className="ml-auto flex flex-wrap justify-end gap-1">
                    {s.keys.map((combo, i) => (
                      <Fragment key={combo.join('+')}>
                        {i > 0 && <span className="text-xs text-zinc-500">/</span>}
                        <KeyCombo keys={combo} />
                      </Fragment>
                    ))}
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </Dialog>
  );
}

export function KeyCombo({ keys }: { keys: readonly string[] }) {
  return (
    <span className="inline-flex gap-0.5">
      {keys.map((k) => (
        <kbd key={k} className="min-w-6 rounded bg-zinc-800 px-1.5 py-0.5 text-center font-sans text-xs text-zinc-200 ring-1 ring-zinc-700">
          {keyLabel(k)}
        </kbd>
      ))}
    </span>
  );
}
