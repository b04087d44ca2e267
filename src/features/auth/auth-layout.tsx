import { useEffect, type ReactNode } from 'react';
import { LanguageSelect } from '../../components/language-select';
import { pageTitle, usePanelName } from '../../lib/panel-name';

/** The frame of the signed-out pages: logo, one card, nothing else to load. */
export function AuthLayout({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  const panelName = usePanelName();
  useEffect(() => {
    document.title = pageTitle(title);
  }, [title]);
  return (
    <main className="flex min-h-full flex-col items-center justify-center px-4 py-10 sm:py-16">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex items-center justify-center gap-2 text-lg font-semibold text-white">
          <img src="/favicon.svg" alt="" className="size-8" />
          <span>{panelName}</span>
        </div>
        <div className="rounded-xl bg-zinc-900 p-6 shadow-xl shadow-black/30 ring-1 ring-zinc-800 sm:p-8">
          <h1 className="text-xl font-semibold text-white">{title}</h1>
          {description && <div className="mt-1.5 text-sm text-zinc-400">{description}</div>}
          <div className="mt-6">{children}</div>
        </div>
        <div className="mt-6">
          <LanguageSelect />
        </div>
      </div>
    </main>
  );
}
