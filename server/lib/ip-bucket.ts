/**
 * The bucket key for a client address. IPv6 clients usually own a whole /64, so one bucket per
 * /64 stops a single host from rotating addresses; IPv4-mapped addresses count as IPv4.
 */
export function ipBucketKey(ip: string): string {
  const bare = ip.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(bare);
  if (mapped?.[1]) return mapped[1];
  if (!bare.includes(':')) return bare;
  const [head = '', tail] = bare.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill('0');
  const groups = [...headGroups, ...fill, ...tailGroups].slice(0, 4);
  return `${groups.map((g) => (parseInt(g, 16) || 0).toString(16)).join(':')}::/64`;
}
