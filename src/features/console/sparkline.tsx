/** A small line chart of the last minute, plain SVG (a chart library would outweigh the page). */
export function Sparkline({ values, max, label }: { values: readonly number[]; max?: number; label: string }) {
  const W = 120;
  const H = 28;
  if (values.length < 2) return <div className="h-7" aria-hidden="true" />;
  const top = Math.max(max ?? 0, ...values, 1e-9);
  const points = values
    .map((v, i) => `${((i / (values.length - 1)) * W).toFixed(1)},${(H - (Math.max(0, v) / top) * (H - 2) - 1).toFixed(1)}`)
    .join(' ');
  return (
    <svg role="img" aria-label={label} viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" className="h-7 w-full text-sky-400">
      <polyline points={`0,${H} ${points} ${W},${H}`} fill="currentColor" fillOpacity="0.12" stroke="none" />
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" vectorEffect="non-scaling-stroke" strokeLinejoin="round" />
    </svg>
  );
}
