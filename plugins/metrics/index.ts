import { definePlugin, Stage, type Json, type OriginEvent } from '../../core/index.js';
import { formatMetrics, type MetricsRegistry } from '../../core/kits/metrics/index.js';
import { secureRandomUUID } from '../../core/kits/fs/index.js';

interface Options {
  enabled?: boolean;
}

const DESCRIPTIONS: Array<[string, string, string]> = [
  ['tool.calls', 'tool calls by tool and status (ok, error, denied)', '1'],
  ['tool.duration', 'tool call duration', 'ms'],
  ['model.requests', 'model requests by provider and prompt-cache result (hit, miss)', '1'],
  ['model.latency', 'model request duration, request sent to last event', 'ms'],
  ['model.ttft', 'time to first token, request sent to first streamed output', 'ms'],
  ['model.tokens', 'tokens by provider and kind (input, output, cache_read, cache_write)', '{token}'],
  ['model.retries', 'provider retries by provider', '1'],
  ['permission.decisions', 'permission decisions by behavior and deciding layer', '1'],
  ['errors', 'errors reported to the user, by code', '1'],
];

/**
 * A monotonic clock in milliseconds. Not the global `performance`: its first use loads
 * node:perf_hooks (~0.9 ms), which a one-shot answer otherwise never needs.
 */
const now = () => Number(process.hrtime.bigint()) / 1e6;

/** Where one agent's model request is: when it was sent, and whether output has arrived. */
interface Inflight {
  sentAt: number;
  firstAt?: number;
}

/** Turns the run's events into counters and histograms on `kernel.metrics`. */
function recordEvent(metrics: MetricsRegistry, provider: string, event: OriginEvent, inflight: Map<string, Inflight>, sent: number[], denied: Set<string>): void {
  const agent = event.agentId ?? 'main';
  switch (event.type) {
    case 'model': {
      const e = event.event;
      let flight = inflight.get(agent);
      if (!flight) inflight.set(agent, (flight = { sentAt: sent.shift() ?? now() }));
      if (!flight.firstAt && (e.type === 'text_delta' || e.type === 'thinking_delta' || e.type === 'tool_call_start')) {
        flight.firstAt = now();
        metrics.observe('model.ttft', flight.firstAt - flight.sentAt, { provider });
      }
      if (e.type === 'retry') metrics.count('model.retries', { provider });
      if (e.type === 'stop') {
        inflight.delete(agent);
        metrics.observe('model.latency', now() - flight.sentAt, { provider });
        const u = e.usage;
        metrics.count('model.requests', { provider, cache: u.cacheReadTokens > 0 ? 'hit' : 'miss' });
        for (const [kind, n] of [['input', u.inputTokens], ['output', u.outputTokens], ['cache_read', u.cacheReadTokens], ['cache_write', u.cacheWriteTokens]] as const)
          if (n) metrics.count('model.tokens', { provider, kind }, n);
      }
      break;
    }
    case 'permission':
      metrics.count('permission.decisions', { behavior: event.decision.behavior, layer: event.decision.layer });
      if (event.decision.behavior === 'deny') {
        if (event.request.callId) denied.add(event.request.callId);
        metrics.count('tool.calls', { tool: event.request.tool, status: 'denied' });
      }
      break;
    case 'tool_end':
      if (denied.delete(event.call.id)) break;
      metrics.count('tool.calls', { tool: event.call.name, status: event.result.isError ? 'error' : 'ok' });
      metrics.observe('tool.duration', event.durationMs, { tool: event.call.name });
      break;
    case 'notice':
      if (event.level === 'error') metrics.count('errors', { code: event.code ?? 'unknown' });
      break;
    case 'done':
      inflight.delete(agent);
      // A request that failed before streaming leaves its mark behind; the main agent's end clears them.
      if (!event.agentId) sent.length = 0;
      break;
  }
}

/**
 * Metrics a maintainer needs, kept in memory from the `event` hook, shown by `/stats`, and saved
 * with the session (the store's `metrics` channel) at each turn's end and on exit.
 */
export default definePlugin<Options>({
  name: 'metrics',
  version: '1.0.0',
  configKey: 'metrics',
  optionsSchema: { type: 'object', additionalProperties: false, properties: { enabled: { type: 'boolean' } } },
  apply(kernel, options) {
    if (options.enabled === false) return;
    const { metrics } = kernel;
    for (const [name, help, unit] of DESCRIPTIONS) metrics.describe(name, { help, unit });
    const provider = kernel.config.provider?.name ?? 'unknown';
    const inflight = new Map<string, Inflight>();
    const sent: number[] = [];
    const denied = new Set<string>();
    const run = secureRandomUUID();
    let changed = false;

    // The request leaves right after the last providerRequest tap: the best "sent" mark the loop offers.
    kernel.hooks.providerRequest.tap({ name: 'metrics', stage: Stage.LAST }, (request) => {
      sent.push(now());
      return request;
    });
    kernel.hooks.event.tap('metrics', (event) => {
      recordEvent(metrics, provider, event, inflight, sent, denied);
      if (event.type !== 'model' || event.event.type === 'stop') changed = true;
    });

    const storeName = kernel.config.persistence?.store;
    const save = async (sessionId: string) => {
      if (!changed || !storeName || storeName === 'none') return;
      changed = false;
      // Not flushed: a crash of the machine may lose the last snapshot, which no reader depends on.
      await kernel.store().appendRecords(sessionId, 'metrics', [{ run, time: Date.now(), metrics: metrics.snapshot() as unknown as Json }], { durable: false });
    };
    kernel.hooks.sessionEvent.tapPromise('metrics', async (event, info) => {
      if (event.type === 'checkpoint' && event.reason !== 'tool_result') await save(info.id);
    });
    kernel.hooks.shutdown.tapPromise({ name: 'metrics', stage: Stage.FLUSH }, async () => {
      if (kernel.session) await save(kernel.session.info.id);
    });
    kernel.hooks.commands.tap('metrics', (registry) =>
      registry.addSlash({
        name: 'stats',
        description: 'tool calls, model latency, tokens, cache hits, denials and errors of this run',
        run: () => formatMetrics(metrics.snapshot()),
      }),
    );
  },
});
