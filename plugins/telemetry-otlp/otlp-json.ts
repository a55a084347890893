import type { MetricLabels, MetricsSnapshot } from '../../core/kits/metrics/index.js';

type AnyValue = { stringValue: string };
type KeyValue = { key: string; value: AnyValue };

const attributes = (labels: MetricLabels): KeyValue[] => Object.entries(labels).map(([key, value]) => ({ key, value: { stringValue: value } }));
const nanos = (ms: number) => `${BigInt(Math.round(ms)) * 1_000_000n}`;
/** OTLP aggregation temporality: our snapshots are totals since the run started. */
const CUMULATIVE = 2;

/**
 * An OTLP/HTTP JSON `ExportMetricsServiceRequest` for a snapshot: counters as monotonic sums,
 * histograms with explicit bounds, every series cumulative since the run started.
 */
export function toOtlpJson(snapshot: MetricsSnapshot, resource: { serviceName: string; kernelApi: string; sessionId?: string }) {
  const start = nanos(snapshot.startedAt);
  const now = nanos(snapshot.time);
  const names = [...new Set([...snapshot.counters.map((c) => c.name), ...snapshot.histograms.map((h) => h.name)])].sort();
  const metrics = names.map((name) => {
    const description = snapshot.descriptions[name];
    const base = { name: `assistant.${name}`, description: description?.help ?? '', unit: description?.unit ?? '' };
    const counters = snapshot.counters.filter((c) => c.name === name);
    if (counters.length)
      return {
        ...base,
        sum: {
          aggregationTemporality: CUMULATIVE,
          isMonotonic: true,
          dataPoints: counters.map((c) => ({ attributes: attributes(c.labels), startTimeUnixNano: start, timeUnixNano: now, asInt: String(c.value) })),
        },
      };
    return {
      ...base,
      histogram: {
        aggregationTemporality: CUMULATIVE,
        dataPoints: snapshot.histograms
          .filter((h) => h.name === name)
          .map((h) => ({
            attributes: attributes(h.labels),
            startTimeUnixNano: start,
            timeUnixNano: now,
            count: String(h.count),
            sum: h.sum,
            min: h.min,
            max: h.max,
            bucketCounts: h.counts.map(String),
            explicitBounds: h.bounds,
          })),
      },
    };
  });
  const resourceAttributes: KeyValue[] = [
    { key: 'service.name', value: { stringValue: resource.serviceName } },
    { key: 'assistant.kernel_api', value: { stringValue: resource.kernelApi } },
    ...(resource.sessionId ? [{ key: 'session.id', value: { stringValue: resource.sessionId } }] : []),
  ];
  return { resourceMetrics: [{ resource: { attributes: resourceAttributes }, scopeMetrics: [{ scope: { name: 'assistant' }, metrics }] }] };
}
