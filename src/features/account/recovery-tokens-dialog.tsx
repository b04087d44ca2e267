import { useState } from 'react';
import { useT } from './messages';
import * as RadixDialog from '@radix-ui/react-dialog';
import { Button } from '../../components/ui/button';
import { useReturnFocus } from '../../components/ui/dialog';

/** Offers the tokens as a text file. */
function download(tokens: string[]) {
  const url = URL.createObjectURL(new Blob([`${tokens.join('\n')}\n`], { type: 'text/plain' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'recovery-tokens.txt';
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * The ten recovery tokens, shown once. Only "I saved them" closes it: not a click outside, not
 * Escape, so they are not lost by a stray click.
 */
export function RecoveryTokensDialog({ tokens, onClose }: { tokens: string[] | null; onClose: () => void }) {
  const focusHandlers = useReturnFocus();
  const [copied, setCopied] = useState(false);
  const t = useT();
  // A Button like its neighbours (not the small inline CopyButton), named by what it does.
  async function copy() {
    if (!tokens) return;
    try {
      await navigator.clipboard.writeText(tokens.join('\n'));
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      setCopied(false);
    }
  }
  return (
    <RadixDialog.Root open={tokens !== null}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-black/60" />
        <RadixDialog.Content
          {...focusHandlers}
          onEscapeKeyDown={(e) => e.preventDefault()}
          onPointerDownOutside={(e) => e.preventDefault()}
          onInteractOutside={(e) => e.preventDefault()}
          className="fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg bg-zinc-900 p-5 shadow-xl ring-1 ring-zinc-700 focus:outline-none"
        >
          <RadixDialog.Title className="text-lg font-semibold text-white">{t('account.tokens.title')}</RadixDialog.Title>
          <RadixDialog.Description className="mt-1 text-sm text-zinc-400">{t('account.tokens.description')}</RadixDialog.Description>
          <ul
            aria-label={t('account.tokens.list')}
            className="mt-4 grid grid-cols-2 gap-2 rounded-md bg-zinc-950 p-3 font-mono text-sm text-zinc-100"
          >
            {tokens?.map((token) => (
              <li key={token}>{token}</li>
            ))}
          </ul>
          <div className="mt-5 flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={() => void copy()}>
              <span aria-live="polite">{copied ? t('account.tokens.copied') : t('account.tokens.copy')}</span>
            </Button>
            <Button variant="secondary" onClick={() => tokens && download(tokens)}>
              {t('account.tokens.download')}
            </Button>
            <Button onClick={onClose}>{t('account.tokens.saved')}</Button>
          </div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
