import { useId, useState } from 'react';
import type { ActivityLog } from '../../contract/activity';
import { Badge } from '../../components/ui/badge';
import { formatDateTime, formatRelativeTime } from '../../lib/format';
import { useLocale } from '../../lib/i18n/catalog';
import { describeActivity } from './activity-sentence';
import { ActivityProperties } from './activity-properties';
import { T, useT } from './messages';

/** Who did it: the embedded user, or the system when the actor is absent (`null_resource`). */
export function actorName(entry: ActivityLog): string | null {
  const actor = entry.relationships?.actor;
  return actor && actor.object === 'user' ? actor.attributes.username : null;
}

/** The schedule that acted, for an entry without a user written by a schedule's run (`properties.schedule`). */
export function scheduleActor(entry: ActivityLog): string | null {
  const name = entry.properties.schedule;
  return actorName(entry) === null && typeof name === 'string' && name !== '' ? name : null;
}

/**
 * One audit entry. Every value from the API is rendered as text: event names, properties and
 * descriptions can carry user-chosen strings such as file names.
 */
export function ActivityEntry({ entry, now, onFilterEvent }: { entry: ActivityLog; now: Date; onFilterEvent: (event: string) => void }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const t = useT();
  const locale = useLocale();
  const actor = actorName(entry);
  const bySchedule = scheduleActor(entry);
  const sentence = entry.description?.trim() || describeActivity(entry.event, entry.properties);
  const hasProperties = Object.keys(entry.properties).length > 0;

  return (
    <li className="flex gap-3 px-3 py-3 sm:px-4">
      <div
        aria-hidden="true"
        className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full bg-zinc-800 text-sm font-semibold text-zinc-300 uppercase ring-1 ring-zinc-700"
      >
        {actor ? actor.slice(0, 1) : '⚙'}
      </div>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
          <div className="flex min-w-0 flex-wrap items-center gap-2">
            <button
              type="button"
              onClick={() => onFilterEvent(entry.event)}
              aria-label={t('activity.filterBy', { event: entry.event })}
              title={t('activity.filterTitle')}
              className="rounded font-mono text-sm break-all text-sky-300 hover:text-sky-200 hover:underline"
            >
              {entry.event}
            </button>
            {entry.is_api && <Badge tone="info">API</Badge>}
            {/* What a user did over SFTP, as the reference panel marks it. */}
            {entry.properties.using_sftp === true && <Badge tone="info">SFTP</Badge>}
          </div>
          <time dateTime={entry.timestamp} title={formatDateTime(entry.timestamp, locale)} className="shrink-0 text-xs text-zinc-400">
            {formatRelativeTime(entry.timestamp, now, locale)}
          </time>
        </div>
        {sentence && <p className="mt-1 text-sm break-words text-zinc-200">{sentence}</p>}
        <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-zinc-400">
          <span>
            <span className="sr-only">{t('activity.actor')} </span>
            {actor ? (
              <span className="font-medium text-zinc-300">{actor}</span>
            ) : bySchedule ? (
              <span className="font-medium text-zinc-300">{t('activity.bySchedule', { name: bySchedule })}</span>
            ) : (
              <span className="italic">{t('activity.system')}</span>
            )}
          </span>
          {entry.ip ? (
            <span>
              <T k="activity.ip" values={{ ip: entry.ip }} components={{ 0: <span className="font-mono text-zinc-300" /> }} />
            </span>
          ) : null}
          {hasProperties && (
            <button
              type="button"
              aria-expanded={open}
              aria-controls={panelId}
              onClick={() => setOpen((v) => !v)}
              className="inline-flex min-h-6 items-center gap-1 rounded font-medium text-sky-300 hover:text-sky-200"
            >
              <svg
                aria-hidden="true"
                viewBox="0 0 20 20"
                className={`size-3.5 transition-transform ${open ? 'rotate-90' : ''}`}
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
              >
                <path d="M7.5 5l5 5-5 5" strokeLinecap="round" strokeLinejoin="round" />
              </svg>
              {t('activity.details')}
            </button>
          )}
        </div>
        {hasProperties && (
          <div id={panelId} hidden={!open} className="mt-2">
            {open && <ActivityProperties properties={entry.properties} />}
          </div>
        )}
      </div>
    </li>
  );
}
