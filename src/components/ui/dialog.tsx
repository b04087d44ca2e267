import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
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

/** Accessible modal (focus trapped, Escape closes, labelled by its title). */
export function Dialog({ open, onOpenChange, title, description, children, footer, wide = false }: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-black/60" />
        <RadixDialog.Content
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
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
