import type { ReactNode } from 'react';

/** A success message, announced to screen readers. */
export function Notice({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="mt-4 rounded-md bg-emerald-950/60 px-3 py-2 text-sm text-emerald-200 ring-1 ring-inset ring-emerald-900">
      {children}
    </p>
  );
}
