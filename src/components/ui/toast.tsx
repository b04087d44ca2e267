import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';

/*
 * Toasts without sonner in the first bundle: nothing on the sign-in page toasts, so the library
 * (and its Toaster) load the first time a toast is shown. `toast.success/error` may be called
 * from anywhere (query cache, handlers); the message waits until the Toaster is mounted.
 */

type Sonner = typeof import('sonner');

let wanted = false;
const listeners = new Set<() => void>();
let markMounted: () => void = () => undefined;
const mounted = new Promise<void>((resolve) => (markMounted = resolve));
let library: Promise<Sonner> | null = null;

const load = () => (library ??= import('sonner'));

function show(kind: 'success' | 'error', message: string) {
  if (!wanted) {
    wanted = true;
    for (const l of listeners) l();
  }
  void Promise.all([load(), mounted]).then(([sonner]) => sonner.toast[kind](message));
}

export const toast = {
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
};

const SonnerToaster = lazy(() => load().then((m) => ({ default: m.Toaster })));

function Mounted() {
  // Runs after the lazy Toaster beside it has mounted and subscribed.
  useEffect(() => markMounted(), []);
  return null;
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** Where toasts appear; renders nothing until the first toast. */
export function Toaster() {
  const active = useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  );
  if (!active) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster theme="dark" position="bottom-right" richColors closeButton />
      <Mounted />
    </Suspense>
  );
}
