import type { Kernel, SessionSnapshot } from '../../core/index.js';
import { formatMetrics, mergeMetrics, type MetricsSnapshot } from '../../core/kits/metrics/index.js';
import { ago } from '../../core/kits/store/index.js';

/** The metrics saved with a session: the last snapshot of each run, added up. */
export async function savedMetrics(kernel: Kernel, sessionId: string): Promise<MetricsSnapshot | undefined> {
  const records = (await kernel.store().readRecords(sessionId, 'metrics')) as Array<{ run?: string; metrics?: MetricsSnapshot }>;
  const lastByRun = new Map<string, MetricsSnapshot>();
  for (const r of records) if (r && r.run && r.metrics) lastByRun.set(r.run, r.metrics);
  return lastByRun.size ? mergeMetrics([...lastByRun.values()]) : undefined;
}

/** `assistant sessions show`: a session's facts, usage, plan and metrics. */
export function showText(s: SessionSnapshot, metrics: MetricsSnapshot | undefined): string {
  const { info, usage } = s;
  const roles = { user: 0, assistant: 0, tool: 0 };
  for (const m of s.messages) roles[m.role]++;
  const rows: Array<[string, string | undefined]> = [
    ['session', info.id],
    ['title', info.title],
    ['project', info.projectRoot],
    ['created', `${new Date(info.createdAt).toISOString()} (${ago(info.createdAt)})`],
    ['active', `${new Date(info.lastActiveAt).toISOString()} (${ago(info.lastActiveAt)})`],
    ['model', info.model ? `${info.provider ? `${info.provider}/` : ''}${info.model}` : undefined],
    ['mode', info.mode],
    ['forked from', info.forkedFrom],
    ['messages', `${s.messages.length} (user ${roles.user}, assistant ${roles.assistant}, tool ${roles.tool})`],
    ['tokens', `${usage.inputTokens} in, ${usage.outputTokens} out, ${usage.cacheReadTokens} cache read, ${usage.cacheWriteTokens} cache write`],
    ['compactions', s.compactions.length ? s.compactions.map((c) => `${new Date(c.time).toISOString()} ${c.tokensBefore}→${c.tokensAfter} tokens`).join('; ') : undefined],
    ['grants', s.grants.length ? s.grants.map((g) => g.rule).join(', ') : undefined],
  ];
  const lines = rows.filter(([, v]) => v !== undefined).map(([k, v]) => `${k.padEnd(12)} ${v}`);
  if (s.todos.length) lines.push('todos', ...s.todos.map((t) => `  [${t.status === 'completed' ? 'x' : t.status === 'in_progress' ? '~' : ' '}] ${t.content}`));
  if (metrics) lines.push('metrics', ...formatMetrics(metrics).split('\n').map((l) => `  ${l}`));
  return lines.join('\n');
}

/** One line of the audit log as the audit-log plugin stores it. */
export interface AuditRecord {
  time?: number;
  tool?: string;
  callId?: string;
  decision?: { behavior?: string; layer?: string; reason?: string };
  outcome?: string;
  durationMs?: number;
  summary?: string;
  agentId?: string;
}

/** `assistant sessions audit`: one tool call per line. */
export function auditLine(r: AuditRecord): string {
  const when = r.time ? new Date(r.time).toISOString().slice(11, 23) : '?';
  const decision = r.decision ? `${r.decision.behavior}${r.decision.layer ? ` (${r.decision.layer})` : ''}` : 'no decision';
  const duration = r.durationMs === undefined ? '' : `${Math.round(r.durationMs)} ms`;
  return [when, (r.tool ?? '?').padEnd(10), decision.padEnd(22), (r.outcome ?? '?').padEnd(8), duration.padStart(8), r.summary ?? '', r.agentId ? `[${r.agentId}]` : '']
    .join('  ')
    .trimEnd();
}
