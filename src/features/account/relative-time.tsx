import { formatDateTime, formatRelativeTime } from '../../lib/format';

/** "3 hours ago", with the exact time on hover. */
export function RelativeTime({ value, now }: { value: string; now: Date }) {
  return (
    <time dateTime={value} title={formatDateTime(value)}>
      {formatRelativeTime(value, now)}
    </time>
  );
}
