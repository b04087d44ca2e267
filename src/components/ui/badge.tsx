import type { ReactNode } from 'react';
import { cn } from './cn';

type Tone = 'neutral' | 'info' | 'warning' | 'danger' | 'success';
const TONES: Record<Tone, string> = {
  neutral: 'bg-zinc-800 text-zinc-300 ring-zinc-700',
  info: 'bg-sky-950 text-sky-300 ring-sky-800',
  warning: 'bg-amber-950 text-amber-300 ring-amber-800',
  danger: 'bg-red-950 text-red-300 ring-red-800',
  success: 'bg-emerald-950 text-emerald-300 ring-emerald-800',
};

export function Badge({ tone = 'neutral', children, className }: { tone?: Tone; children: ReactNode; className?: string }) {
  return (
    <span className={cn('inline-flex items-center rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset', TONES[tone], className)}>
      {children}
    </span>
  );
}
