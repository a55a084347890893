import { AssistantError, SessionError } from '../../kernel/errors.js';
import type { Kernel } from '../../kernel/kernel-types.js';
import { openSession } from './session.js';
import type { SessionState } from '../../types/agent.js';
import type { SessionSummary } from '../../types/session.js';
import { summaryLine } from '../store/index.js';

/** The session flags of a prompt run (`--continue`, `--resume`, `--fork-session`, `--take-over`). */
export interface SessionFlags {
  /** `--continue`: the most recent session of this project. */
  continue?: boolean;
  /** `--resume [id]`: an id or prefix, or `true` to pick one. */
  resume?: string | boolean;
  /** `--fork-session`: start a new session from the resumed one's history. */
  forkSession?: boolean;
  /** `--take-over`: take the session from the surface holding it. */
  takeOver?: boolean;
}

const recentList = (rows: SessionSummary[]) => rows.map((r) => `  ${summaryLine(r)}`).join('\n');

/** Asks on the terminal which of the recent sessions to resume. */
async function pickSession(rows: SessionSummary[]): Promise<string> {
  process.stderr.write('Recent sessions of this project:\n');
  rows.forEach((r, i) => process.stderr.write(`  ${String(i + 1).padStart(2)}. ${summaryLine(r)}\n`));
  const rl = process.getBuiltinModule('node:readline/promises').createInterface({ input: process.stdin, output: process.stderr }); // loaded only to ask
  try {
    for (;;) {
      const answer = (await rl.question(`Resume which session? [1-${rows.length}, Enter for 1, q to quit] `)).trim();
      if (answer === 'q') throw new AssistantError('ASSISTANT_USAGE', 'no session picked');
      const n = answer === '' ? 1 : Number(answer);
      if (Number.isInteger(n) && n >= 1 && n <= rows.length) return rows[n - 1]!.id;
      process.stderr.write(`Type a number from 1 to ${rows.length}.\n`);
    }
  } finally {
    rl.close();
  }
}

/** The full id `--resume` names: an id prefix, or a pick from a list on a terminal. */
export async function resolveSessionId(kernel: Kernel, wanted: string | boolean, interactive: boolean): Promise<string> {
  const store = kernel.store();
  if (typeof wanted !== 'string') {
    const recent = await store.list({ projectRoot: kernel.projectRoot, limit: 20 });
    if (!recent.length)
      throw new SessionError('ASSISTANT_SESSION_NOT_FOUND', `no stored session for ${kernel.projectRoot}; start one with: assistant -p "<prompt>" (or list every project's with: assistant sessions list --all)`);
    if (interactive) return pickSession(recent);
    throw new AssistantError('ASSISTANT_USAGE', `--resume needs a session id when there is no terminal to pick one on; recent sessions of this project:\n${recentList(recent.slice(0, 10))}\nrun: assistant --resume <id> -p "<prompt>" (an id prefix is enough)`);
  }
  const matches = await store.resolve(wanted, kernel.projectRoot);
  if (matches.length === 1) return matches[0]!;
  if (!matches.length)
    throw new SessionError('ASSISTANT_SESSION_NOT_FOUND', `no stored session id starts with "${wanted}" (in this project or any other); list them with: assistant sessions list --all`);
  throw new SessionError('ASSISTANT_SESSION_AMBIGUOUS', `"${wanted}" matches ${matches.length} sessions: ${matches.map((id) => id.slice(0, 12)).join(', ')}; give more of the id`);
}

/**
 * Opens the session a run works on: new, or `--continue` / `--resume` (taking its lease, so one
 * surface writes it), or a `--fork-session` copy. Load warnings (a torn last line) go to stderr.
 */
export async function openSessionForRun(kernel: Kernel, flags: SessionFlags, defaults: { provider?: string; model?: string }, interactive: boolean): Promise<SessionState> {
  const base = { projectRoot: kernel.projectRoot, mode: kernel.config.permissions?.mode ?? 'default', ...defaults };
  const resuming = flags.continue || (flags.resume !== undefined && flags.resume !== false);
  if (!resuming) {
    if (flags.forkSession || flags.takeOver)
      throw new AssistantError('ASSISTANT_USAGE', `${flags.forkSession ? '--fork-session' : '--take-over'} needs --continue or --resume <id>`);
    return openSession(kernel, base);
  }
  if (flags.continue && flags.resume !== undefined && flags.resume !== false)
    throw new AssistantError('ASSISTANT_USAGE', 'use either --continue or --resume, not both');
  const id = flags.continue ? (await kernel.store().list({ projectRoot: kernel.projectRoot, limit: 1 }))[0]?.id : await resolveSessionId(kernel, flags.resume!, interactive);
  if (!id) throw new SessionError('ASSISTANT_SESSION_NOT_FOUND', `no previous session to continue in ${kernel.projectRoot}; start one with: assistant -p "<prompt>"`);
  // Claim before reading, so nothing the previous holder writes can be missing from what we load.
  if (!flags.forkSession) await kernel.store().acquire(id, { takeOver: flags.takeOver });
  const snapshot = await kernel.store().load({ kind: 'id', id, projectRoot: kernel.projectRoot });
  if (!snapshot) throw new SessionError('ASSISTANT_SESSION_NOT_FOUND', `session ${id} could not be loaded from the "${kernel.store().name}" store`);
  for (const warning of snapshot.warnings) process.stderr.write(`warning: ${warning}\n`);
  return openSession(kernel, { ...base, ...(flags.forkSession ? { fork: snapshot } : { resume: snapshot }) });
}
