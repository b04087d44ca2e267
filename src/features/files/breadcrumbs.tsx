import { Link } from 'react-router';
import { useT } from './messages';
import { breadcrumbs, directoryHref } from './paths';

/** Where you are: the root, then every folder down to the current one (which is not a link). */
export function Breadcrumbs({ serverId, dir }: { serverId: string; dir: string }) {
  const t = useT();
  const crumbs = breadcrumbs(dir);
  const linkClass = 'rounded px-1 text-sky-400 hover:text-sky-300 hover:underline';
  return (
    <nav aria-label={t('files.breadcrumbs.label')} className="min-w-0">
      <ol className="flex flex-wrap items-center gap-x-0.5 gap-y-1 font-mono text-sm text-zinc-400">
        <li>
          {crumbs.length === 0 ? (
            <span aria-current="page" className="px-1 font-semibold text-zinc-100">
              /home/container
            </span>
          ) : (
            <Link to={directoryHref(serverId, '/')} className={linkClass}>
              /home/container
            </Link>
          )}
        </li>
        {crumbs.map((c, i) => (
          <li key={c.path} className="flex min-w-0 items-center gap-0.5">
            <span aria-hidden="true" className="text-zinc-600">
              /
            </span>
            {i === crumbs.length - 1 ? (
              <span aria-current="page" className="break-all px-1 font-semibold text-zinc-100">
                {c.name}
              </span>
            ) : (
              <Link to={directoryHref(serverId, c.path)} className={`${linkClass} break-all`}>
                {c.name}
              </Link>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
