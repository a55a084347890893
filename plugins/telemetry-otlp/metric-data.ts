import { ValueType, type Attributes, type HrTime } from '@opentelemetry/api';
import { AggregationTemporality, DataPointType, type MetricData, type ScopeMetrics } from '@opentelemetry/sdk-metrics';
import type { MetricLabels, MetricsSnapshot } from '../../core/kits/metrics/index.js';

const hrTime = (ms: number): HrTime => [Math.floor(ms / 1000), Math.round((ms % 1000) * 1_000_000)];
const attributes = (labels: MetricLabels): Attributes => ({ ...labels });

/**
 * The kernel's metrics snapshot in the OpenTelemetry SDK's data model, ready for an OTLP exporter:
 * counters as monotonic sums, histograms with explicit bounds, every series cumulative since the run
 * started (the registry keeps totals, not deltas).
 */
export function toScopeMetrics(snapshot: MetricsSnapshot, scope: { name: string; version?: string }): ScopeMetrics {
  const startTime = hrTime(snapshot.startedAt);
  const endTime = hrTime(snapshot.time);
  const names = [...new Set([...snapshot.counters.map((c) => c.name), ...snapshot.histograms.map((h) => h.name)])].sort();
  const metrics = names.map((name): MetricData => {
    const description = snapshot.descriptions[name];
    const counters = snapshot.counters.filter((c) => c.name === name);
    // A counter of whole things travels as an integer; one that adds fractions (a cost) as a double.
    const valueType = counters.length && counters.every((c) => Number.isInteger(c.value)) ? ValueType.INT : ValueType.DOUBLE;
    const descriptor = { name: `assistant.${name}`, description: description?.help ?? '', unit: description?.unit ?? '', valueType };
    if (counters.length)
      return {
        descriptor,
        aggregationTemporality: AggregationTemporality.CUMULATIVE,
        dataPointType: DataPointType.SUM,
        isMonotonic: true,
        dataPoints: counters.map((c) => ({ startTime, endTime, attributes: attributes(c.labels), value: c.value })),
      };
    return {
      descriptor,
      aggregationTemporality: AggregationTemporality.CUMULATIVE,
      dataPointType: DataPointType.HISTOGRAM,
      dataPoints: snapshot.histograms
        .filter((h) => h.name === name)
        .map((h) => ({
          startTime,
          endTime,
          attributes: attributes(h.labels),
          value: { buckets: { boundaries: h.bounds, counts: h.counts }, count: h.count, sum: h.sum, min: h.min, max: h.max },
        })),
    };
  });
  return { scope, metrics };
}
