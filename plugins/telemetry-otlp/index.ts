import { definePlugin, Stage } from '../../core/index.js';
import { toOtlpJson } from './otlp-json.js';

interface Options {
  /** OTLP/HTTP base URL (e.g. `http://127.0.0.1:4318`); `/v1/metrics` is added unless present. Nothing is sent without it. */
  endpoint?: string;
  intervalMs?: number;
  headers?: Record<string, string>;
  serviceName?: string;
  timeoutMs?: number;
}

/**
 * Exports `kernel.metrics` to an OpenTelemetry collector over OTLP/HTTP JSON, periodically and
 * once more on exit. Off unless `telemetry.endpoint` is set: no network otherwise.
 */
export default definePlugin<Options>({
  name: 'telemetry-otlp',
  version: '1.0.0',
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
    if (!options.endpoint) return;
    const url = /\/v1\/metrics\/?$/.test(options.endpoint) ? options.endpoint : `${options.endpoint.replace(/\/$/, '')}/v1/metrics`;
    let timer: NodeJS.Timeout | undefined;
    let warned = false;
    const exportNow = async () => {
      const body = toOtlpJson(kernel.metrics.snapshot(), { serviceName: options.serviceName ?? 'assistant', kernelApi: kernel.apiVersion, sessionId: kernel.session?.info.id });
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...options.headers },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
        });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        await response.arrayBuffer();
      } catch (error) {
        // Telemetry never breaks a run: say it once, keep going.
        if (!warned) logger.warn(`cannot export metrics to ${url}: ${(error as Error).message}`);
        warned = true;
      }
    };
    kernel.hooks.ready.tapPromise('telemetry-otlp', async () => {
      timer = setInterval(() => void exportNow(), options.intervalMs ?? 60_000);
      timer.unref();
    });
    kernel.hooks.shutdown.tapPromise({ name: 'telemetry-otlp', stage: Stage.FLUSH }, async () => {
      clearInterval(timer);
      await exportNow();
    });
  },
});
