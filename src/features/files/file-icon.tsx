import type { FileObject } from '../../contract/files';
import { isArchive } from './file-kinds';

/** A decorative icon for an entry (the name beside it says what it is). */
export function FileIcon({ entry }: { entry: FileObject }) {
  const common = { className: 'size-5 shrink-0', viewBox: '0 0 24 24', fill: 'none', 'aria-hidden': true, strokeWidth: 1.8 } as const;
  if (!entry.is_file) {
    return (
      <svg {...common} className="size-5 shrink-0 text-sky-400" stroke="currentColor" fill="currentColor" fillOpacity={0.15}>
        <path
          strokeLinejoin="round"
          d="M3 6.5A1.5 1.5 0 0 1 4.5 5h4.3l2 2.2h8.7A1.5 1.5 0 0 1 21 8.7v9.8a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 18.5z"
        />
      </svg>
    );
  }
  if (isArchive(entry)) {
    return (
      <svg {...common} className="size-5 shrink-0 text-amber-400" stroke="currentColor">
        <path strokeLinejoin="round" d="M6 3h9l4 4v14H6z" />
        <path strokeLinecap="round" d="M11 6h1.5M11 9h1.5M11 12h1.5M10.5 15h3v3h-3z" />
      </svg>
    );
  }
  return (
    <svg {...common} className="size-5 shrink-0 text-zinc-400" stroke="currentColor">
      <path strokeLinejoin="round" d="M6 3h9l4 4v14H6z" />
      <path strokeLinejoin="round" d="M15 3v4h4" />
      {entry.is_symlink && <path strokeLinecap="round" d="M9.5 15.5l4-4m0 0h-3m3 0v3" />}
    </svg>
  );
}
