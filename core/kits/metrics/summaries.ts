// Reading metrics after the fact (the metrics registry itself is the kernel's): merging the
// snapshots of several runs, quantiles of a histogram, and the text `/stats` and `sessions show` print.
import { seriesKey, type CounterPoint, type HistogramPoint, type MetricDescription, type MetricLabels, type MetricsSnapshot } from '../../kernel/metrics.js';

/** Adds several snapshots (e.g. one per run of a resumed session) into one. */
export function mergeMetrics(snapshots: MetricsSnapshot[]): MetricsSnapshot {
  const counters = new Map<string, CounterPoint>();
  const histograms = new Map<string, HistogramPoint>();
  const descriptions: Record<string, MetricDescription> = {};
  for (const s of snapshots) {
    Object.assign(descriptions, s.descriptions);
    for (const c of s.counters) {
      const key = seriesKey(c.name, c.labels);
      const into = counters.get(key);
      if (into) into.value += c.value;
      else counters.set(key, { ...c, labels: { ...c.labels } });
    }
    for (const h of s.histograms) {
      const key = seriesKey(h.name, h.labels);
      const into = histograms.get(key);
      if (!into || into.bounds.join() !== h.bounds.join()) {
        if (!into) histograms.set(key, { ...h, labels: { ...h.labels }, counts: [...h.counts] });
        continue;
      }
      into.count += h.count;
      into.sum += h.sum;
      into.min = Math.min(into.min, h.min);
      into.max = Math.max(into.max, h.max);
      h.counts.forEach((n, i) => (into.counts[i] = (into.counts[i] ?? 0) + n));
    }
  }
  return {
    startedAt: Math.min(...snapshots.map((s) => s.startedAt), Date.now()),
    time: Math.max(0, ...snapshots.map((s) => s.time)),
    descriptions,
    counters: [...counters.values()],
    histograms: [...histograms.values()],
  };
}

/** The value at quantile `q` (0..1) of a histogram, estimated within its bucket. */
export function histogramQuantile(point: HistogramPoint, q: number): number {
  if (!point.count) return 0;
  const rank = q * point.count;
  let seen = 0;
  for (let i = 0; i < point.counts.length; i++) {
    const n = point.counts[i]!;
    if (seen + n >= rank && n > 0) {
      const lower = i === 0 ? point.min : point.bounds[i - 1]!;
      const upper = i < point.bounds.length ? point.bounds[i]! : point.max;
      const within = Math.min(Math.max(lower + ((upper - lower) * (rank - seen)) / n, point.min), point.max);
      return within;
    }
    seen += n;
  }
  return point.max;
}

const labelText = (labels: MetricLabels) =>
  Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');

const round = (n: number) => (n >= 100 ? Math.round(n) : Math.round(n * 10) / 10);

/** The snapshot as text for people: one line per series, counters first, grouped by metric. */
export function formatMetrics(snapshot: MetricsSnapshot): string {
  const lines: string[] = [];
  const byName = <T extends { name: string }>(points: T[]) => {
    const groups = new Map<string, T[]>();
    for (const p of points) groups.set(p.name, [...(groups.get(p.name) ?? []), p]);
    return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
  };
  for (const [name, points] of byName(snapshot.counters)) {
    const total = points.reduce((n, p) => n + p.value, 0);
    const unit = snapshot.descriptions[name]?.unit;
    lines.push(`${name}: ${total}${unit && unit !== '1' ? ` ${unit}` : ''}`);
    for (const p of points.sort((a, b) => b.value - a.value)) if (Object.keys(p.labels).length) lines.push(`  ${labelText(p.labels)}: ${p.value}`);
  }
  for (const [name, points] of byName(snapshot.histograms)) {
    const unit = snapshot.descriptions[name]?.unit ?? '';
    lines.push(`${name}:`);
    for (const p of points)
      lines.push(
        `  ${labelText(p.labels) || 'all'}: n=${p.count} p50=${round(histogramQuantile(p, 0.5))}${unit} p95=${round(histogramQuantile(p, 0.95))}${unit} max=${round(p.max)}${unit}`,
      );
  }
  return lines.length ? lines.join('\n') : 'no activity recorded yet';
}
