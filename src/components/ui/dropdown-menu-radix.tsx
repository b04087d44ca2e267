import * as Radix from '@radix-ui/react-dropdown-menu';
import { forwardRef, type ComponentPropsWithoutRef, type ReactElement, type ReactNode } from 'react';
import { cn } from './cn';

/** The props of `DropdownMenu` (dropdown-menu.tsx), which loads this file when a menu is first used. */
export interface DropdownMenuProps {
  trigger: ReactElement;
  children: ReactNode;
  align?: 'start' | 'center' | 'end';
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}

/*
 * A styled Radix dropdown menu: keyboard navigation, typeahead, focus return and Escape come from
 * Radix. Pages use it through dropdown-menu.tsx.
 */
export function RadixDropdownMenu({
  trigger,
  children,
  align = 'end',
  open,
  onOpenChange,
  defaultOpen,
}: DropdownMenuProps & { defaultOpen?: boolean }) {
  return (
    <Radix.Root modal={false} open={open} onOpenChange={onOpenChange} defaultOpen={defaultOpen}>
      <Radix.Trigger asChild>{trigger}</Radix.Trigger>
      <Radix.Portal>
        <Radix.Content
          align={align}
          sideOffset={4}
          collisionPadding={8}
          className="z-50 min-w-44 rounded-md bg-zinc-900 p-1 text-sm text-zinc-100 shadow-xl ring-1 ring-zinc-700 focus:outline-none"
        >
          {children}
        </Radix.Content>
      </Radix.Portal>
    </Radix.Root>
  );
}

export const DropdownMenuItem = forwardRef<HTMLDivElement, ComponentPropsWithoutRef<typeof Radix.Item> & { danger?: boolean }>(
  function DropdownMenuItem({ className, danger, ...rest }, ref) {
    return (
      <Radix.Item
        ref={ref}
        className={cn(
          'flex min-h-9 cursor-pointer select-none items-center gap-2 rounded px-2.5 py-1.5 outline-none data-[disabled]:cursor-not-allowed data-[disabled]:text-zinc-500',
          danger
            ? 'text-red-300 data-[highlighted]:bg-red-950 data-[highlighted]:text-red-200'
            : 'data-[highlighted]:bg-zinc-800 data-[highlighted]:text-white',
          className,
        )}
        {...rest}
      />
    );
  },
);

export function DropdownMenuSeparator() {
  return <Radix.Separator className="my-1 h-px bg-zinc-800" />;
}
