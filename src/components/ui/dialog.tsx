import * as RadixDialog from '@radix-ui/react-dialog';
import { useRef, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import { cn } from './cn';

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  /** Room for a form with many fields (the permission editor): wider on large screens. */
  wide?: boolean;
}

/**
 * Where focus goes back to when a dialog closes: the control that opened it, or the menu button of
 * the menu item that did; the page's main region when there is none (focus was already lost), it
 * is gone (a deleted row) or disabled (a reinstall running), so focus never falls to <body>.
 */
function opener(): HTMLElement | null {
  const active = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
  const menuButton = active?.closest('[role="menu"]')?.getAttribute('aria-labelledby');
  return (menuButton && document.getElementById(menuButton)) || active;
}

function returnFocus(target: HTMLElement | null) {
  if (target?.isConnected && !target.matches(':disabled')) target.focus();
  else document.getElementById('main')?.focus();
}

/**
 * Handlers for a Radix Dialog.Content opened from state: Radix gives focus back only to a
 * Dialog.Trigger, which these dialogs have none of.
 */
export function useReturnFocus() {
  const openedFrom = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: () => {
      openedFrom.current = opener();
    },
    onCloseAutoFocus: (event: Event) => {
      event.preventDefault();
      returnFocus(openedFrom.current);
    },
  };
}

/**
 * The frame every modal shares: the overlay, and content with focus trapped, Escape closing it and
 * focus given back where it was. `Dialog` is the usual one; the command palette lays out its own.
 */
export function ModalFrame({
  open,
  onOpenChange,
  children,
  ...content
}: { open: boolean; onOpenChange: (open: boolean) => void; children: ReactNode } & ComponentPropsWithoutRef<typeof RadixDialog.Content>) {
  const focusHandlers = useReturnFocus();
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-black/60" />
        <RadixDialog.Content {...focusHandlers} {...content}>
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** Accessible modal (focus trapped, Escape closes, labelled by its title). */
export function Dialog({ open, onOpenChange, title, description, children, footer, wide = false }: DialogProps) {
  return (
    <ModalFrame
      open={open}
      onOpenChange={onOpenChange}
      className={cn(
        'fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] overflow-y-auto -translate-x-1/2 -translate-y-1/2 rounded-lg bg-zinc-900 p-5 shadow-xl ring-1 ring-zinc-700 focus:outline-none',
        wide ? 'max-w-4xl' : 'max-w-lg',
      )}
    >
      <RadixDialog.Title className="text-lg font-semibold text-white">{title}</RadixDialog.Title>
      {description ? (
        <RadixDialog.Description className="mt-1 text-sm text-zinc-400">{description}</RadixDialog.Description>
      ) : (
        <RadixDialog.Description className="sr-only">{title}</RadixDialog.Description>
      )}
      {children && <div className="mt-4">{children}</div>}
      {footer && <div className="mt-5 flex flex-wrap justify-end gap-2">{footer}</div>}
    </ModalFrame>
  );
}
