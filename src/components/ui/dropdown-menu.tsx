import { cloneElement, lazy, Suspense, useState, type ReactElement } from 'react';
import type { DropdownMenuProps } from './dropdown-menu-radix';

/*
 * A dropdown menu: <DropdownMenu trigger={<button …/>}><DropdownMenuItem …/></DropdownMenu>. The
 * menu library (Radix, about 17 KB) is not part of a page's first load: the trigger is a plain
 * button until it is first used (pointing at it or focusing it starts loading the menu), then the
 * Radix menu takes its place, open.
 */

const load = () => import('./dropdown-menu-radix');
const RadixDropdownMenu = lazy(() => load().then((m) => ({ default: m.RadixDropdownMenu })));
/** Items and separators only render inside an open menu, so after the library has loaded. */
export const DropdownMenuItem = lazy(() => load().then((m) => ({ default: m.DropdownMenuItem })));
export const DropdownMenuSeparator = lazy(() => load().then((m) => ({ default: m.DropdownMenuSeparator })));

export function DropdownMenu(props: DropdownMenuProps) {
  const [used, setUsed] = useState(false);
  const plain = cloneElement(props.trigger as ReactElement<Record<string, unknown>>, {
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    onPointerEnter: () => void load(),
    onFocus: () => void load(),
    onClick: () => {
      setUsed(true);
      props.onOpenChange?.(true);
    },
  });
  if (!used && !props.open) return plain;
  return (
    <Suspense fallback={plain}>
      <RadixDropdownMenu {...props} defaultOpen={props.open === undefined ? true : undefined} />
    </Suspense>
  );
}
