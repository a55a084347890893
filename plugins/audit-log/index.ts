import { definePlugin, sourceFor, Stage, type Json, type Kernel, type Logger, type OriginEvent } from '../../core/index.js';
import { clip, inputDigest, unfinishedOutcome, type AuditRecord } from './record.js';

interface Options {
  enabled?: boolean;
  /** Tool input longer than this (as JSON) is cut, keeping the start. */
  maxInputChars?: number;
}

/**
 * `permissions.audit` turned on a second audit file the permissions plugin wrote; this log now holds
 * everything that file did. The key stays valid (configs keep loading) and says so once.
 */
function warnDeprecatedPermissionsAudit(kernel: Kernel, logger: Logger): void {
  const value = (kernel.config.permissions as { audit?: unknown } | undefined)?.audit;
  if (value === undefined) return;
  const where = sourceFor(kernel.resolvedConfig, '/permissions/audit');
  logger.warn(
    `permissions.audit (set in ${where}) is deprecated and has no effect: every permission decision and approval is in the session's audit log ` +
      `(\`assistant sessions audit <id>\`). Remove the key${value === false ? '; to turn the audit log off, set audit.enabled: false' : ''}.`,
  );
}

/**
 * The audit log, the only one: every tool call with its permission decision (and the approval
 * asked for, with the answer), duration and outcome, as JSON lines beside the session (the store's
 * `audit` channel), written at each checkpoint.
 */
export default definePlugin<Options>({
  name: 'audit-log',
  version: '1.1.0',
  configKey: 'audit',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { enabled: { type: 'boolean' }, maxInputChars: { type: 'integer', minimum: 0 } },
  },
  apply(kernel, options, { logger }) {
    warnDeprecatedPermissionsAudit(kernel, logger);
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
      if (e.type === 'permission' || e.type === 'approval') {
        const { request } = e;
        const record = recordFor(e, request.callId ?? `${request.tool}-${Date.now()}`, request.tool);
        record.input ??= clip(request.input, maxInput);
        record.inputDigest ??= inputDigest(request.input);
        record.mode ??= request.mode;
        const { behavior, layer, reason } = e.decision;
        if (e.type === 'approval') record.approval = { behavior, layer, reason, answer: { behavior: e.answer.behavior, scope: e.answer.scope } };
        else record.decision = { behavior, layer, reason };
        // A decision about no tool call (a check made outside the pipeline) is complete as it is.
        if (!request.callId && e.type === 'permission') finish({ ...record, outcome: unfinishedOutcome(record) });
      } else if (e.type === 'tool_start') {
        const record = recordFor(e, e.call.id, e.call.name);
        record.summary = e.summary;
        record.input ??= clip(e.call.input, maxInput);
        record.inputDigest ??= inputDigest(e.call.input);
      } else if (e.type === 'tool_end') {
        const record = recordFor(e, e.call.id, e.call.name);
        record.durationMs = Math.round(e.durationMs * 10) / 10;
        record.outcome = record.decision?.behavior === 'deny' ? 'denied' : e.result.isError ? 'error' : 'ok';
        if (e.result.isError) record.error = e.result.content.map((c) => (c.type === 'text' ? c.text : '')).join(' ').slice(0, 500);
        finish(record);
      } else if ((e.type === 'turn_end' || e.type === 'done') && !e.agentId) {
        // Calls that never reached tool_end: denied before running, or cut off.
        for (const record of [...open.values()]) if (record.sessionId === e.sessionId) finish({ ...record, outcome: unfinishedOutcome(record) });
      }
    });

    const flush = async (k: Kernel, sessionId: string) => {
      const records = ready.get(sessionId);
      if (!records?.length) return;
      ready.delete(sessionId);
      await k.store().appendRecords(sessionId, 'audit', records as unknown as Json[]);
    };
    kernel.hooks.sessionEvent.tapPromise('audit-log', async (event, info) => {
      if (event.type === 'checkpoint') await flush(kernel, info.id);
    });
    kernel.hooks.shutdown.tapPromise({ name: 'audit-log', stage: Stage.FLUSH }, async () => {
      for (const record of [...open.values()]) finish({ ...record, outcome: unfinishedOutcome(record) });
      for (const sessionId of [...ready.keys()]) await flush(kernel, sessionId);
    });
  },
});
