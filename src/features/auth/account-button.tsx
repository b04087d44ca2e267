/** The header's account button face, shared by the plain button and the loaded menu's trigger. */
export const ACCOUNT_BUTTON =
  'flex min-h-9 min-w-0 max-w-[40vw] sm:max-w-[60vw] items-center gap-2 rounded-md px-2 py-1 text-sm font-medium text-zinc-200 hover:bg-zinc-800 hover:text-white data-[state=open]:bg-zinc-800';

export function AccountButtonContent({ username }: { username: string }) {
  return (
    <>
      <span aria-hidden="true" className="grid size-7 shrink-0 place-items-center rounded-full bg-sky-900 text-xs font-semibold text-sky-100">
        {(username[0] ?? '?').toUpperCase()}
      </span>
      <span className="truncate">{username}</span>
      <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 shrink-0 text-zinc-400" fill="currentColor">
        <path d="M5.23 7.21a.75.75 0 0 1 1.06.02L10 11.17l3.71-3.94a.75.75 0 1 1 1.08 1.04l-4.25 4.5a.75.75 0 0 1-1.08 0l-4.25-4.5a.75.75 0 0 1 .02-1.06Z" />
      </svg>
    </>
  );
}
