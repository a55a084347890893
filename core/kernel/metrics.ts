/** Labels of one metric series, e.g. `{ tool: 'Read', status: 'ok' }`. */
export type MetricLabels = Record<string, string>;

/** How a metric is described to people and exporters. */
export interface MetricDescription {
  /** What the metric counts, for people. */
  help: string;
  /** UCUM-style unit: `ms`, `1`, `{token}`. */
  unit?: string;
  /** Upper bounds of histogram buckets (ascending); the last bucket is open. */
  buckets?: number[];
}

/** One counter series. */
export interface CounterPoint {
  /** The metric's name. */
  name: string;
  /** The series' labels. */
  labels: MetricLabels;
  /** The count so far. */
  value: number;
}

/** One histogram series: `counts[i]` observations ≤ `bounds[i]`, the last count above every bound. */
export interface HistogramPoint {
  /** The metric's name. */
  name: string;
  /** The series' labels. */
  labels: MetricLabels;
  /** Observations so far. */
  count: number;
  /** Sum of every observation. */
  sum: number;
  /** Smallest observation. */
  min: number;
  /** Largest observation. */
  max: number;
  /** Upper bounds of the buckets, ascending. */
  bounds: number[];
  /** Observations per bucket; one more entry than `bounds`, for values above the last bound. */
  counts: number[];
}

/** Every series at one moment: plain data, saved with the session and exported. */
export interface MetricsSnapshot {
  /** When counting started (ms since the epoch). */
  startedAt: number;
  /** When the snapshot was taken (ms since the epoch). */
  time: number;
  /** Descriptions by metric name. */
  descriptions: Record<string, MetricDescription>;
  /** Every counter series. */
  counters: CounterPoint[];
  /** Every histogram series. */
  histograms: HistogramPoint[];
}

/** In-memory counters and histograms on the kernel; plugins record, `/stats` and exporters read. */
export interface MetricsRegistry {
  /** Describes a metric (help, unit, histogram buckets); describe before the first observation to set buckets. */
  describe(name: string, description: MetricDescription): void;
  /** Adds `by` (default 1) to a counter series. */
  count(name: string, labels?: MetricLabels, by?: number): void;
  /** Records one value in a histogram series. */
  observe(name: string, value: number, labels?: MetricLabels): void;
  /** Copies every series as plain data. */
  snapshot(): MetricsSnapshot;
}

/** Default histogram bounds, for durations in milliseconds. */
export const DURATION_BUCKETS_MS = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000, 60_000];

const seriesKey = (name: string, labels: MetricLabels) =>
  name + JSON.stringify(Object.keys(labels).sort().map((k) => [k, labels[k]]));

/** Creates an empty registry. */
export function createMetricsRegistry(now = Date.now()): MetricsRegistry {
  const descriptions: Record<string, MetricDescription> = {};
  const counters = new Map<string, CounterPoint>();
  const histograms = new Map<string, HistogramPoint>();
  return {
    describe(name, description) {
      descriptions[name] = description;
    },
    count(name, labels = {}, by = 1) {
      const key = seriesKey(name, labels);
      const point = counters.get(key) ?? counters.set(key, { name, labels: { ...labels }, value: 0 }).get(key)!;
      point.value += by;
    },
    observe(name, value, labels = {}) {
      const key = seriesKey(name, labels);
      let point = histograms.get(key);
      if (!point) {
        const bounds = descriptions[name]?.buckets ?? DURATION_BUCKETS_MS;
        point = { name, labels: { ...labels }, count: 0, sum: 0, min: value, max: value, bounds, counts: new Array(bounds.length + 1).fill(0) };
        histograms.set(key, point);
      }
      point.count++;
      point.sum += value;
      point.min = Math.min(point.min, value);
      point.max = Math.max(point.max, value);
      const index = point.bounds.findIndex((b) => value <= b);
      point.counts[index === -1 ? point.bounds.length : index]!++;
    },
    snapshot() {
      return {
        startedAt: now,
        time: Date.now(),
        descriptions: structuredClone(descriptions),
        counters: [...counters.values()].map((c) => ({ ...c, labels: { ...c.labels } })),
        histograms: [...histograms.values()].map((h) => ({ ...h, labels: { ...h.labels }, counts: [...h.counts] })),
      };
    },
  };
}

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
