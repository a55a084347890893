import { definePlugin, Stage } from '../../core/index.js';
import { type MetricsSnapshot } from '../../core/kits/metrics/index.js';
import { exportTarget, type TelemetryOptions } from './export-target.js';
import type { MetricsExporter } from './metrics-exporter.js';

const VERSION = '1.1.0';

/**
 * Exports `kernel.metrics` to an OpenTelemetry collector over OTLP/HTTP JSON (the OpenTelemetry
 * SDK's exporter), periodically and once more on exit. Off unless `telemetry.endpoint` or
 * `OTEL_EXPORTER_OTLP_(METRICS_)ENDPOINT` is set: no network, and the SDK is not even loaded.
 */
export default definePlugin<TelemetryOptions>({
  name: 'telemetry-otlp',
  version: VERSION,
  configKey: 'telemetry',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      endpoint: { type: 'string', pattern: '^https?://' },
      intervalMs: { type: 'integer', minimum: 100 },
      headers: { type: 'object', additionalProperties: { type: 'string' } },
      serviceName: { type: 'string', minLength: 1 },
      timeoutMs: { type: 'integer', minimum: 10 },
    },
  },
  apply(kernel, options, { logger }) {
    const target = exportTarget(options, process.env);
    if (!target) return;
    if (target.from === 'environment' && options.endpoint)
      logger.info(`telemetry.endpoint ${options.endpoint} is not used: OTEL_EXPORTER_OTLP_*ENDPOINT in the environment names the collector`);
    let exporter: MetricsExporter | undefined;
    let timer: NodeJS.Timeout | undefined;
    let warned = false;
    const warnOnce = (what: string, error: unknown) => {
      // Telemetry never breaks a run: say it once, keep going.
      if (!warned) logger.warn(`${what}: ${(error as Error)?.message ?? error}`);
      warned = true;
    };
    const where = target.from === 'environment' ? 'the collector OTEL_EXPORTER_OTLP_* names' : target.url;
    const exportNow = async (snapshot: MetricsSnapshot) => {
      try {
        await exporter?.send(snapshot, kernel.session?.info.id);
      } catch (error) {
        warnOnce(`cannot export metrics to ${where}`, error);
      }
    };
    kernel.hooks.ready.tapPromise('telemetry-otlp', async () => {
      try {
        const { createMetricsExporter } = await import('./metrics-exporter.js');
        exporter = createMetricsExporter(target, options, { kernelApi: kernel.apiVersion, pluginVersion: VERSION });
      } catch (error) {
        warnOnce('cannot start the OpenTelemetry exporter', error);
        return;
      }
      timer = setInterval(() => void exportNow(kernel.metrics.snapshot()), options.intervalMs ?? 60_000);
      timer.unref();
    });
    kernel.hooks.shutdown.tapPromise({ name: 'telemetry-otlp', stage: Stage.FLUSH }, async () => {
      clearInterval(timer);
      if (!exporter) return;
      await exportNow(kernel.metrics.snapshot());
      await exporter.shutdown().catch((error: unknown) => warnOnce('cannot stop the OpenTelemetry exporter', error));
    });
  },
});
