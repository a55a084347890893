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

/** One series per name and label set, whatever order the labels were given in. */
export const seriesKey = (name: string, labels: MetricLabels) =>
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
