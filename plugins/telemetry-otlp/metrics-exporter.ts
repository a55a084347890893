// Loaded only when telemetry is on: everything that imports the OpenTelemetry SDK lives here.
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import type { MetricsSnapshot } from '../../core/kits/metrics/index.js';
import { ENVIRONMENT_HEADER_VARIABLES, environmentSetsTimeout, type ExportTarget, type TelemetryOptions } from './export-target.js';
import { toScopeMetrics } from './metric-data.js';

/** Sends snapshots to one collector; `shutdown` waits for exports in flight. */
export interface MetricsExporter {
  send(snapshot: MetricsSnapshot, sessionId?: string): Promise<void>;
  shutdown(): Promise<void>;
}

/** Default time limit per export, unless the options or `OTEL_EXPORTER_OTLP_*TIMEOUT` say otherwise: short, so exit never waits long. */
const DEFAULT_TIMEOUT_MS = 5000;

export function createMetricsExporter(
  target: ExportTarget,
  options: TelemetryOptions,
  identity: { kernelApi: string; pluginVersion: string },
): MetricsExporter {
  const timeoutMillis = options.timeoutMs ?? (environmentSetsTimeout(process.env) ? undefined : DEFAULT_TIMEOUT_MS);
  const exporter =
    target.from === 'environment'
      ? // URL, headers, compression and certificates all from OTEL_EXPORTER_OTLP_*; the config's
        // headers were written for the config's endpoint and stay with it.
        new OTLPMetricExporter({ timeoutMillis })
      : withoutEnvironmentHeaders(() => new OTLPMetricExporter({ url: target.url, headers: options.headers, timeoutMillis }));
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES override these, as the spec asks.
  const resource = resourceFromAttributes({ 'service.name': options.serviceName ?? 'assistant', 'assistant.kernel_api': identity.kernelApi }).merge(
    detectResources({ detectors: [envDetector] }),
  );
  const scope = { name: 'assistant', version: identity.pluginVersion };
  return {
    send: (snapshot, sessionId) =>
      new Promise<void>((resolve, reject) => {
        const withSession = sessionId ? resourceFromAttributes({ 'session.id': sessionId }).merge(resource) : resource;
        exporter.export({ resource: withSession, scopeMetrics: [toScopeMetrics(snapshot, scope)] }, (result) =>
          result.code === ExportResultCode.SUCCESS ? resolve() : reject(result.error ?? new Error('export failed')),
        );
      }),
    shutdown: () => exporter.shutdown(),
  };
}

/**
 * Builds the exporter with the OTEL_* header variables hidden: they hold credentials for the
 * collector the environment names, and must not go to an endpoint a (project's) config file chose.
 * The exporter reads them synchronously in its constructor, so hiding them for that call is enough.
 */
function withoutEnvironmentHeaders<T>(make: () => T): T {
  const saved = ENVIRONMENT_HEADER_VARIABLES.map((name) => [name, process.env[name]] as const);
  for (const [name] of saved) delete process.env[name];
  try {
    return make();
  } finally {
    for (const [name, value] of saved) if (value !== undefined) process.env[name] = value;
  }
}
