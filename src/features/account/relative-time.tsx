import { formatDateTime, formatRelativeTime } from '../../lib/format';
import { useLocale } from '../../lib/i18n/catalog';

/** "3 hours ago", with the exact time on hover. */
export function RelativeTime({ value, now }: { value: string; now: Date }) {
  const locale = useLocale();
  return (
    <time dateTime={value} title={formatDateTime(value, locale)}>
      {formatRelativeTime(value, now, locale)}
    </time>
  );
}
