import { definePlugin, Stage, type Json, type Kernel, type OriginEvent } from '../../core/index.js';

interface Options {
  enabled?: boolean;
  /** Tool input longer than this (as JSON) is cut, keeping the start. */
  maxInputChars?: number;
}

/** One line of the audit log: a tool call, its permission decision, duration and outcome. */
interface AuditRecord {
  time: number;
  sessionId: string;
  agentId?: string;
  callId: string;
  tool: string;
  summary?: string;
  input?: Json;
  decision?: { behavior: string; layer: string; reason: string };
  outcome?: 'ok' | 'error' | 'denied' | 'not_run';
  durationMs?: number;
  error?: string;
}

function clip(input: Record<string, unknown>, max: number): Json {
  const text = JSON.stringify(input);
  return text.length <= max ? (JSON.parse(text) as Json) : { truncated: true, preview: text.slice(0, max) };
}

/**
 * The audit log: every tool call with its permission decision, duration and outcome, as JSON
 * lines beside the session (the store's `audit` channel), written at each checkpoint.
 */
export default definePlugin<Options>({
  name: 'audit-log',
  version: '1.0.0',
  configKey: 'audit',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { enabled: { type: 'boolean' }, maxInputChars: { type: 'integer', minimum: 0 } },
  },
  apply(kernel, options) {
    const storeName = kernel.config.persistence?.store;
    if (options.enabled === false || !storeName || storeName === 'none') return;
    const maxInput = options.maxInputChars ?? 2000;
    const open = new Map<string, AuditRecord>();
    const ready = new Map<string, AuditRecord[]>();

    const recordFor = (event: OriginEvent & { sessionId: string }, callId: string, tool: string): AuditRecord => {
      let record = open.get(callId);
      if (!record) {
        record = { time: Date.now(), sessionId: event.sessionId, ...(event.agentId ? { agentId: event.agentId } : {}), callId, tool };
        open.set(callId, record);
      }
      return record;
    };
    const finish = (record: AuditRecord) => {
      open.delete(record.callId);
      ready.set(record.sessionId, [...(ready.get(record.sessionId) ?? []), record]);
    };

    kernel.hooks.event.tap('audit-log', (event) => {
      // Only the open session has a place to write to (tool calls made outside one are not audited).
      if (!event.sessionId || event.sessionId !== kernel.session?.info.id) return;
      const e = event as OriginEvent & { sessionId: string };
      if (e.type === 'permission') {
        const record = recordFor(e, e.request.callId ?? `${e.request.tool}-${Date.now()}`, e.request.tool);
        record.input ??= clip(e.request.input, maxInput);
        record.decision = { behavior: e.decision.behavior, layer: e.decision.layer, reason: e.decision.reason };
        if (!e.request.callId) finish({ ...record, outcome: e.decision.behavior === 'deny' ? 'denied' : 'not_run' });
      } else if (e.type === 'tool_start') {
        const record = recordFor(e, e.call.id, e.call.name);
        record.summary = e.summary;
        record.input ??= clip(e.call.input, maxInput);
      } else if (e.type === 'tool_end') {
        const record = recordFor(e, e.call.id, e.call.name);
        record.durationMs = Math.round(e.durationMs * 10) / 10;
        record.outcome = record.decision?.behavior === 'deny' ? 'denied' : e.result.isError ? 'error' : 'ok';
        if (e.result.isError) record.error = e.result.content.map((c) => (c.type === 'text' ? c.text : '')).join(' ').slice(0, 500);
        finish(record);
      } else if ((e.type === 'turn_end' || e.type === 'done') && !e.agentId) {
        // Calls that never reached tool_end: denied before running, or cut off.
        for (const record of [...open.values()]) if (record.sessionId === e.sessionId) finish({ ...record, outcome: record.decision?.behavior === 'deny' ? 'denied' : 'not_run' });
      }
    });

    const flush = async (k: Kernel, sessionId: string) => {
      const records = ready.get(sessionId);
      if (!records?.length) return;
      ready.delete(sessionId);
      await k.store().appendRecords(sessionId, 'audit', records as unknown as Json[]);
    };
    kernel.hooks.persist.tapPromise({ name: 'audit-log', stage: Stage.PERSIST }, async (event, info) => {
      if (event.type === 'checkpoint') await flush(kernel, info.id);
    });
    kernel.hooks.shutdown.tapPromise({ name: 'audit-log', stage: Stage.FLUSH }, async () => {
      for (const record of [...open.values()]) finish({ ...record, outcome: record.decision?.behavior === 'deny' ? 'denied' : 'not_run' });
      for (const sessionId of [...ready.keys()]) await flush(kernel, sessionId);
    });
  },
});
