/** A range of ports as operators write it (`25565-25665`), running upwards within 1-65535; null otherwise. */
export function parsePortRange(text: string): { start: number; end: number } | null {
  const match = /^(\d{1,5})-(\d{1,5})$/.exec(text);
  if (!match) return null;
  const [start, end] = [Number(match[1]), Number(match[2])];
  return start >= 1 && start <= end && end <= 65535 ? { start, end } : null;
}

export const PORT_RANGE_RULE = 'a range like 25565-25665 running upwards within 1-65535';
