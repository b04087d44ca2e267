import { useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { FormError } from '../../components/ui/field';
import { ListPage, ListSearch } from '../../components/ui/list-page';
import { ListRow, RowList } from '../../components/ui/row-list';
import { EmptyState } from '../../components/ui/states';
import { useListSearch } from '../../lib/use-list-search';
import { usePageParam } from '../../lib/use-page-param';
import { adminEggQueries, eggsOf, useImportEgg } from './api';
import { useT } from './messages';

/**
 * The nests and their eggs, searched by egg name (`?q=`), a page of nests at a time (`?page=`);
 * an egg file (PTDL_v2 or Pelican) is imported into a nest from here. "/" jumps to the search box.
 */
export function AdminEggsPage() {
  const t = useT();
  const navigate = useNavigate();
  const [page, setPage] = usePageParam();
  const search = useListSearch();
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
    <ListPage
      headingId="admin-eggs-heading"
      title={t('adminEggs.title')}
      action={
        <div className="flex flex-wrap items-end gap-2">
          <label className="flex items-center gap-2 text-sm text-zinc-300">
            <span>{t('adminEggs.importInto')}</span>
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
            {importEgg.isPending ? t('adminEggs.importing') : t('adminEggs.import')}
          </Button>
          <input
            ref={fileRef}
            type="file"
            accept="application/json,.json"
            aria-label={t('adminEggs.file')}
            className="sr-only"
            tabIndex={-1}
            onChange={(e) => void onFile(e.target.files?.[0])}
          />
        </div>
      }
      notice={<FormError message={importEgg.error ? t('adminEggs.refused', { message: importEgg.error.message }) : null} />}
      search={<ListSearch search={search} label={t('adminEggs.search')} />}
      query={query}
      items={query.data?.data}
      empty={<EmptyState title={t('adminEggs.noNests')} />}
      paging={{ meta: query.data?.meta.pagination, onPage: setPage, label: t('adminEggs.nestPages') }}
    >
      {(list) =>
        list.map(({ attributes: nest }) => {
          const eggs = eggsOf(nest.relationships).filter((e) => !needle || e.name.toLowerCase().includes(needle));
          return (
            <section key={nest.id} aria-label={t('adminEggs.nest', { name: nest.name })} className="space-y-2">
              <h3 className="text-sm font-semibold tracking-wide text-zinc-300 uppercase">{nest.name}</h3>
              {nest.description && <p className="text-sm text-zinc-400">{nest.description}</p>}
              {eggs.length === 0 ? (
                <p className="text-sm text-zinc-500">{needle ? t('adminEggs.noMatch') : t('adminEggs.noEggs')}</p>
              ) : (
                <RowList label={t('adminEggs.eggsOf', { name: nest.name })} busy={query.isPlaceholderData}>
                  {eggs.map((egg) => (
                    <ListRow
                      key={egg.id}
                      to={`/admin/eggs/${nest.id}/${egg.id}`}
                      title={egg.name}
                      details={<p className="line-clamp-2 text-sm text-zinc-400">{egg.description ?? egg.author}</p>}
                    >
                      <Badge tone="neutral">{t('adminEggs.images', { count: Object.keys(egg.docker_images).length })}</Badge>
                    </ListRow>
                  ))}
                </RowList>
              )}
            </section>
          );
        })
      }
    </ListPage>
  );
}
