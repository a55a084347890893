/** Helpers for metrics plugins (`<pkg>/kits/metrics`): the registry the kernel keeps, merging, quantiles and text output. */
export {
  createMetricsRegistry,
  mergeMetrics,
  histogramQuantile,
  DURATION_BUCKETS_MS,
  formatMetrics,
  type MetricsRegistry,
  type MetricsSnapshot,
  type MetricDescription,
  type MetricLabels,
  type CounterPoint,
  type HistogramPoint,
} from '../../kernel/metrics.js';
