import { writeFileSync } from 'node:fs';
import { AssistantError, SessionError, lazyImport, type CliCommand, type Json, type Kernel, type SessionSnapshot } from '../../core/index.js';
import { resolveSessionId } from '../../core/kits/agent/index.js';
import { summaryLine } from '../../core/kits/store/index.js';
import type { AuditRecord } from './show.js';

/** How `show`, `export` and `audit` render a session, imported when one of them runs. */
const renderers = lazyImport('session-commands', 'session renderers', () => import('./render.js'));

const out = (text: string): void => void process.stdout.write(text.endsWith('\n') ? text : text + '\n');

/** Parses `30d`, `12h`, `90m`, `2w`, `45s` into milliseconds; undefined when it is not a duration. */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*(s|m|h|d|w)$/i.exec(text.trim());
  if (!m) return undefined;
  const unit = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[m[2]!.toLowerCase() as 's'];
  return Number(m[1]) * unit;
}

async function load(kernel: Kernel, prefix: string): Promise<SessionSnapshot> {
  const id = await resolveSessionId(kernel, prefix, false);
  const snapshot = await kernel.store().load({ kind: 'id', id, projectRoot: kernel.projectRoot });
  if (!snapshot) throw new SessionError('ASSISTANT_SESSION_NOT_FOUND', `session ${id} could not be loaded`);
  for (const warning of snapshot.warnings) process.stderr.write(`warning: ${warning}\n`);
  return snapshot;
}

const json = { flags: '--json', description: 'machine-readable output' };

/** `assistant sessions list | show | export | delete | prune | audit`. */
export function sessionsCommand(kernel: Kernel): CliCommand {
  const list: CliCommand = {
    name: 'list',
    description: "this project's sessions, most recent first",
    options: [{ flags: '--all', description: 'every project' }, { flags: '--limit <n>', description: 'at most this many', default: '50' }, json],
    async action(_args, opts) {
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1) throw new AssistantError('ASSISTANT_USAGE', `--limit must be a positive integer (got "${String(opts.limit)}")`);
      const all = opts.all === true;
      const rows = await kernel.store().list({ projectRoot: kernel.projectRoot, allProjects: all, limit });
      if (opts.json) return out(JSON.stringify(rows, null, 2));
      if (!rows.length) return out(all ? 'no stored sessions' : `no sessions for ${kernel.projectRoot} (assistant sessions list --all shows every project's)`);
      out(rows.map((r) => summaryLine(r, { showProject: all })).join('\n'));
    },
  };
  const show: CliCommand = {
    name: 'show',
    description: 'what a session holds: facts, usage, plan, metrics',
    arguments: '<id>',
    options: [{ flags: '--json', description: 'the whole session as JSON' }],
    async action([id], opts) {
      const { savedMetrics, showText } = await renderers();
      const snapshot = await load(kernel, id!);
      const metrics = await savedMetrics(kernel, snapshot.info.id);
      out(opts.json ? JSON.stringify({ ...snapshot, metrics }, null, 2) : showText(snapshot, metrics));
    },
  };
  const exportCommand: CliCommand = {
    name: 'export',
    description: 'write a session as Markdown or JSON',
    arguments: '<id>',
    options: [
      { flags: '--format <format>', description: 'markdown or json', default: 'markdown' },
      { flags: '-o, --output <file>', description: 'write to a file instead of stdout' },
    ],
    async action([id], opts) {
      if (opts.format !== 'markdown' && opts.format !== 'json') throw new AssistantError('ASSISTANT_USAGE', `--format must be markdown or json (got "${String(opts.format)}")`);
      const { sessionMarkdown } = await renderers();
      const snapshot = await load(kernel, id!);
      const text = opts.format === 'json' ? JSON.stringify(snapshot, null, 2) + '\n' : sessionMarkdown(snapshot);
      if (typeof opts.output === 'string') writeFileSync(opts.output, text, { mode: 0o600 });
      else out(text);
    },
  };
  const remove: CliCommand = {
    name: 'delete',
    description: 'remove a session and everything stored beside it',
    arguments: '<id>',
    async action([prefix]) {
      const id = await resolveSessionId(kernel, prefix!, false);
      if (!(await kernel.store().delete(id))) throw new SessionError('ASSISTANT_SESSION_NOT_FOUND', `session ${id} was not found`);
      out(`deleted ${id}`);
    },
  };
  const prune: CliCommand = {
    name: 'prune',
    description: 'delete sessions idle for longer than a duration',
    options: [
      { flags: '--older-than <duration>', description: 'e.g. 30d, 12h, 2w', required: true },
      { flags: '--all', description: 'every project, not just this one' },
      { flags: '--dry-run', description: 'list what would be deleted' },
    ],
    async action(_args, opts) {
      const olderThan = String(opts.olderThan);
      const age = parseDuration(olderThan);
      if (age === undefined) throw new AssistantError('ASSISTANT_USAGE', `--older-than wants a duration like 30d, 12h, 90m or 2w (got "${olderThan}")`);
      const before = Date.now() - age;
      const all = opts.all === true;
      const query = { projectRoot: kernel.projectRoot, allProjects: all };
      const rows = opts.dryRun
        ? (await kernel.store().list(query)).filter((r) => r.lastActiveAt < before && !r.inUseBy)
        : await kernel.store().prune({ ...query, before });
      for (const r of rows) out(`${opts.dryRun ? 'would delete' : 'deleted'} ${summaryLine(r, { showProject: all })}`);
      out(`${rows.length} session(s) ${opts.dryRun ? 'would be ' : ''}deleted`);
    },
  };
  const audit: CliCommand = {
    name: 'audit',
    description: 'every tool call of a session with its permission decision, duration and outcome',
    arguments: '<id>',
    options: [{ flags: '--json', description: 'the JSON lines as stored' }],
    async action([prefix], opts) {
      const id = await resolveSessionId(kernel, prefix!, false);
      const records = (await kernel.store().readRecords(id, 'audit')) as Json[];
      if (opts.json) return out(records.map((r) => JSON.stringify(r)).join('\n'));
      if (!records.length) return out(`no tool calls recorded for session ${id}`);
      const { auditLine } = await renderers();
      out(records.map((r) => auditLine(r as AuditRecord)).join('\n'));
    },
  };
  return {
    name: 'sessions',
    description: 'list, inspect, export and remove stored sessions',
    subcommands: [list, show, exportCommand, remove, prune, audit],
  };
}
