/** Helpers for metrics plugins (`<pkg>/kits/metrics`): the registry the kernel keeps, merging, quantiles and text output. */
export { mergeMetrics, histogramQuantile, formatMetrics } from './summaries.js';
export {
  createMetricsRegistry,
  DURATION_BUCKETS_MS,
  type MetricsRegistry,
  type MetricsSnapshot,
  type MetricDescription,
  type MetricLabels,
  type CounterPoint,
  type HistogramPoint,
} from '../../kernel/metrics.js';
