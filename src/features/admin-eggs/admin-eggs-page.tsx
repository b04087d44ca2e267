import { useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { FormError } from '../../components/ui/field';
import { Pagination } from '../../components/ui/pagination';
import { QueryList } from '../../components/ui/query-list';
import { SearchInput } from '../../components/ui/search-input';
import { EmptyState } from '../../components/ui/states';
import { formatCount } from '../../lib/format';
import { useSearchParamInput } from '../../lib/use-search-param';
import { usePageParam } from '../../lib/use-page-param';
import { useSlashFocus } from '../../lib/use-slash-focus';
import { adminEggQueries, eggsOf, useImportEgg } from './api';

/**
 * The nests and their eggs, searched by egg name (`?q=`), a page of nests at a time (`?page=`);
 * an egg file (PTDL_v2 or Pelican) is imported into a nest from here. "/" jumps to the search box.
 */
export function AdminEggsPage() {
  const navigate = useNavigate();
  const [page, setPage] = usePageParam();
  const search = useSearchParamInput('q', { reset: ['page'] });
  const searchRef = useRef<HTMLInputElement>(null);
  useSlashFocus(searchRef);
  const query = useQuery(adminEggQueries.nests(page));
  const importEgg = useImportEgg();
  const fileRef = useRef<HTMLInputElement>(null);
  const [target, setTarget] = useState('');
  const nests = query.data?.data ?? [];
  const nestId = target || String(nests[0]?.attributes.id ?? '');
  const needle = search.value.trim().toLowerCase();

  const onFile = async (file: File | undefined) => {
    if (!file || !nestId) return;
    importEgg.reset();
    try {
      const made = await importEgg.mutateAsync({ nest: nestId, file });
      void navigate(`/admin/eggs/${nestId}/${made.attributes.id}`);
    } catch {
      // The error document's message shows under the import controls.
    } finally {
      if (fileRef.current) fileRef.current.value = '';
    }
  };

  return (
    <section aria-labelledby="admin-eggs-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="admin-eggs-heading" className="text-lg font-semibold text-white">
          Eggs
        </h2>
        <div className="flex flex-wrap items-end gap-2">
          <label className="flex items-center gap-2 text-sm text-zinc-300">
            <span>Import into</span>
            <select
              value={nestId}
              onChange={(e) => setTarget(e.target.value)}
              className="min-h-10 rounded-md bg-zinc-900 px-2 text-zinc-100 ring-1 ring-zinc-700 ring-inset focus:ring-2 focus:ring-sky-500 focus:outline-none"
            >
              {nests.map(({ attributes: n }) => (
                <option key={n.id} value={n.id}>
                  {n.name}
                </option>
              ))}
            </select>
          </label>
          <Button onClick={() => fileRef.current?.click()} disabled={!nestId || importEgg.isPending}>
            {importEgg.isPending ? 'Importing…' : 'Import egg file'}
          </Button>
          <input
            ref={fileRef}
            type="file"
            accept="application/json,.json"
            aria-label="Egg file"
            className="sr-only"
            tabIndex={-1}
            onChange={(e) => void onFile(e.target.files?.[0])}
          />
        </div>
      </div>
      <FormError message={importEgg.error ? `The egg file was refused: ${importEgg.error.message}` : null} />

      <SearchInput
        ref={searchRef}
        label="Search eggs by name"
        placeholder="Search eggs by name…"
        value={search.draft}
        onValueChange={search.setDraft}
        onCommit={search.commit}
        aria-keyshortcuts="/"
        className="sm:max-w-md"
      />

      <QueryList query={query} items={query.data?.data} empty={<EmptyState title="No nests yet" />}>
        {(list) => (
          <>
            {list.map(({ attributes: nest }) => {
              const eggs = eggsOf(nest.relationships).filter((e) => !needle || e.name.toLowerCase().includes(needle));
              return (
                <section key={nest.id} aria-label={`Nest ${nest.name}`} className="space-y-2">
                  <h3 className="text-sm font-semibold tracking-wide text-zinc-300 uppercase">{nest.name}</h3>
                  {nest.description && <p className="text-sm text-zinc-400">{nest.description}</p>}
                  {eggs.length === 0 ? (
                    <p className="text-sm text-zinc-500">{needle ? 'No egg of this nest matches.' : 'No eggs in this nest.'}</p>
                  ) : (
                    <ul aria-label={`Eggs of ${nest.name}`} className="divide-y divide-zinc-800/80 rounded-lg bg-zinc-900/60 ring-1 ring-zinc-800">
                      {eggs.map((egg) => (
                        <li key={egg.id} className="relative flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3 hover:bg-zinc-800/40">
                          <div className="min-w-0 flex-1 basis-48">
                            <Link
                              to={`/admin/eggs/${nest.id}/${egg.id}`}
                              className="font-medium break-all text-zinc-100 after:absolute after:inset-0 focus-visible:outline-none focus-visible:after:rounded-lg focus-visible:after:ring-2 focus-visible:after:ring-sky-500"
                            >
                              {egg.name}
                            </Link>
                            <p className="line-clamp-2 text-sm text-zinc-400">{egg.description ?? egg.author}</p>
                          </div>
                          <Badge tone="neutral">{formatCount(Object.keys(egg.docker_images).length, 'image')}</Badge>
                        </li>
                      ))}
                    </ul>
                  )}
                </section>
              );
            })}
            {query.data && <Pagination meta={query.data.meta.pagination} onPage={setPage} label="Nest pages" />}
          </>
        )}
      </QueryList>
    </section>
  );
}
