import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { AssistantError, SessionError } from '../../core/kernel/errors.js';
import type { Kernel } from '../../core/kernel/kernel-types.js';
import { formatMetrics, mergeMetrics, type MetricsSnapshot } from '../../core/kernel/metrics.js';
import type { Json } from '../../core/types/json-schema.js';
import type { SessionSnapshot } from '../../core/types/session.js';
import { ago, parseDuration, summaryLine } from './session-format.js';
import { sessionMarkdown } from './session-export.js';
import { resolveSessionId } from './session-open.js';

const out = (text: string): void => void process.stdout.write(text.endsWith('\n') ? text : text + '\n');

async function load(kernel: Kernel, prefix: string): Promise<SessionSnapshot> {
  const id = await resolveSessionId(kernel, prefix, false);
  const snapshot = await kernel.hooks.loadSession.promise({ kind: 'id', id, projectRoot: kernel.projectRoot });
  if (!snapshot) throw new SessionError('ASSISTANT_SESSION_NOT_FOUND', `session ${id} could not be loaded`);
  for (const warning of snapshot.warnings) process.stderr.write(`warning: ${warning}\n`);
  return snapshot;
}

/** The metrics saved with a session: the last snapshot of each run, added up. */
export async function savedMetrics(kernel: Kernel, sessionId: string): Promise<MetricsSnapshot | undefined> {
  const records = (await kernel.store().readRecords(sessionId, 'metrics')) as Array<{ run?: string; metrics?: MetricsSnapshot }>;
  const lastByRun = new Map<string, MetricsSnapshot>();
  for (const r of records) if (r && r.run && r.metrics) lastByRun.set(r.run, r.metrics);
  return lastByRun.size ? mergeMetrics([...lastByRun.values()]) : undefined;
}

function showText(s: SessionSnapshot, metrics: MetricsSnapshot | undefined): string {
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

interface AuditRecord {
  time?: number;
  tool?: string;
  callId?: string;
  decision?: { behavior?: string; layer?: string; reason?: string };
  outcome?: string;
  durationMs?: number;
  summary?: string;
  agentId?: string;
}

function auditLine(r: AuditRecord): string {
  const when = r.time ? new Date(r.time).toISOString().slice(11, 23) : '?';
  const decision = r.decision ? `${r.decision.behavior}${r.decision.layer ? ` (${r.decision.layer})` : ''}` : 'no decision';
  const duration = r.durationMs === undefined ? '' : `${Math.round(r.durationMs)} ms`;
  return [when, (r.tool ?? '?').padEnd(10), decision.padEnd(22), (r.outcome ?? '?').padEnd(8), duration.padStart(8), r.summary ?? '', r.agentId ? `[${r.agentId}]` : '']
    .join('  ')
    .trimEnd();
}

/** `assistant sessions list | show | export | delete | prune | audit`. */
export function registerSessionsCommand(program: Command, _exit: { code: number }, kernelOf: () => Kernel): void {
  const sessions = program.command('sessions').description('list, inspect, export and remove stored sessions');

  sessions
    .command('list')
    .description("this project's sessions, most recent first")
    .option('--all', 'every project')
    .option('--limit <n>', 'at most this many', '50')
    .option('--json', 'machine-readable output')
    .action(async (opts: { all?: boolean; limit: string; json?: boolean }) => {
      const kernel = kernelOf();
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1) throw new AssistantError('ASSISTANT_USAGE', `--limit must be a positive integer (got "${opts.limit}")`);
      const rows = await kernel.store().list({ projectRoot: kernel.projectRoot, allProjects: opts.all, limit });
      if (opts.json) return out(JSON.stringify(rows, null, 2));
      if (!rows.length) return out(opts.all ? 'no stored sessions' : `no sessions for ${kernel.projectRoot} (assistant sessions list --all shows every project's)`);
      out(rows.map((r) => summaryLine(r, { showProject: opts.all })).join('\n'));
    });

  sessions
    .command('show <id>')
    .description('what a session holds: facts, usage, plan, metrics')
    .option('--json', 'the whole session as JSON')
    .action(async (id: string, opts: { json?: boolean }) => {
      const kernel = kernelOf();
      const snapshot = await load(kernel, id);
      const metrics = await savedMetrics(kernel, snapshot.info.id);
      out(opts.json ? JSON.stringify({ ...snapshot, metrics }, null, 2) : showText(snapshot, metrics));
    });

  sessions
    .command('export <id>')
    .description('write a session as Markdown or JSON')
    .option('--format <format>', 'markdown or json', 'markdown')
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .action(async (id: string, opts: { format: string; output?: string }) => {
      if (opts.format !== 'markdown' && opts.format !== 'json') throw new AssistantError('ASSISTANT_USAGE', `--format must be markdown or json (got "${opts.format}")`);
      const snapshot = await load(kernelOf(), id);
      const text = opts.format === 'json' ? JSON.stringify(snapshot, null, 2) + '\n' : sessionMarkdown(snapshot);
      if (opts.output) writeFileSync(opts.output, text, { mode: 0o600 });
      else out(text);
    });

  sessions
    .command('delete <id>')
    .description('remove a session and everything stored beside it')
    .action(async (prefix: string) => {
      const kernel = kernelOf();
      const id = await resolveSessionId(kernel, prefix, false);
      if (!(await kernel.store().delete(id))) throw new SessionError('ASSISTANT_SESSION_NOT_FOUND', `session ${id} was not found`);
      out(`deleted ${id}`);
    });

  sessions
    .command('prune')
    .description('delete sessions idle for longer than a duration')
    .requiredOption('--older-than <duration>', 'e.g. 30d, 12h, 2w')
    .option('--all', 'every project, not just this one')
    .option('--dry-run', 'list what would be deleted')
    .action(async (opts: { olderThan: string; all?: boolean; dryRun?: boolean }) => {
      const kernel = kernelOf();
      const age = parseDuration(opts.olderThan);
      if (age === undefined) throw new AssistantError('ASSISTANT_USAGE', `--older-than wants a duration like 30d, 12h, 90m or 2w (got "${opts.olderThan}")`);
      const before = Date.now() - age;
      const query = { projectRoot: kernel.projectRoot, allProjects: opts.all };
      const rows = opts.dryRun
        ? (await kernel.store().list(query)).filter((r) => r.lastActiveAt < before && !r.inUseBy)
        : await kernel.store().prune({ ...query, before });
      for (const r of rows) out(`${opts.dryRun ? 'would delete' : 'deleted'} ${summaryLine(r, { showProject: opts.all })}`);
      out(`${rows.length} session(s) ${opts.dryRun ? 'would be ' : ''}deleted`);
    });

  sessions
    .command('audit <id>')
    .description("every tool call of a session with its permission decision, duration and outcome")
    .option('--json', 'the JSON lines as stored')
    .action(async (prefix: string, opts: { json?: boolean }) => {
      const kernel = kernelOf();
      const id = await resolveSessionId(kernel, prefix, false);
      const records = (await kernel.store().readRecords(id, 'audit')) as Json[];
      if (opts.json) return out(records.map((r) => JSON.stringify(r)).join('\n'));
      if (!records.length) return out(`no tool calls recorded for session ${id}`);
      out(records.map((r) => auditLine(r as AuditRecord)).join('\n'));
    });
}
