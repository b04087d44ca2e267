/** A property value as text: strings as they are, everything else as JSON. */
export function propertyText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return 'undefined';
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** An entry's properties as a key/value list. Values are text nodes, so hostile file names stay inert. */
export function ActivityProperties({ properties }: { properties: Record<string, unknown> }) {
  return (
    <dl className="grid grid-cols-1 gap-x-4 gap-y-1 rounded-md bg-zinc-950 p-3 text-xs ring-1 ring-zinc-800 sm:grid-cols-[minmax(6rem,max-content)_1fr]">
      {Object.entries(properties).map(([key, value]) => (
        <div key={key} className="contents">
          <dt className="font-mono text-zinc-400 break-all">{key}</dt>
          <dd className="mb-1.5 font-mono break-all whitespace-pre-wrap text-zinc-200 sm:mb-0">{propertyText(value)}</dd>
        </div>
      ))}
    </dl>
  );
}
