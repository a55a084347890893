/** The plugin's options, as `.assistantrc` gives them under `telemetry`. */
export interface TelemetryOptions {
  /** OTLP/HTTP base URL (e.g. `http://127.0.0.1:4318`); `/v1/metrics` is added unless present. */
  endpoint?: string;
  intervalMs?: number;
  headers?: Record<string, string>;
  serviceName?: string;
  timeoutMs?: number;
}

/** Where metrics go: the collector the environment names, or the one the config names. */
export type ExportTarget = { from: 'environment' } | { from: 'config'; url: string };

const set = (value: string | undefined) => value !== undefined && value.trim() !== '';

/**
 * Reads the standard OpenTelemetry variables without loading the SDK, so a run with telemetry off
 * pays nothing for it. The environment wins over the config: it is the user's own setting for this
 * process, where a config file may come with the project.
 */
export function exportTarget(options: TelemetryOptions, env: NodeJS.ProcessEnv): ExportTarget | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  if (env.OTEL_METRICS_EXPORTER?.trim().toLowerCase() === 'none') return undefined;
  if (set(env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT) || set(env.OTEL_EXPORTER_OTLP_ENDPOINT)) return { from: 'environment' };
  if (!options.endpoint) return undefined;
  const url = /\/v1\/metrics\/?$/.test(options.endpoint) ? options.endpoint : `${options.endpoint.replace(/\/$/, '')}/v1/metrics`;
  return { from: 'config', url };
}

/** The variables that carry credentials for the environment's collector (see `withoutEnvironmentHeaders`). */
export const ENVIRONMENT_HEADER_VARIABLES = ['OTEL_EXPORTER_OTLP_HEADERS', 'OTEL_EXPORTER_OTLP_METRICS_HEADERS'] as const;

/** True when the environment sets an export time limit the exporter reads itself. */
export function environmentSetsTimeout(env: NodeJS.ProcessEnv): boolean {
  return set(env.OTEL_EXPORTER_OTLP_METRICS_TIMEOUT) || set(env.OTEL_EXPORTER_OTLP_TIMEOUT);
}
