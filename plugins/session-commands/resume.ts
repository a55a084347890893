import {
  SessionError,
  messageText,
  type Kernel,
  type Message,
  type SessionSummary,
  type SlashCommandContext,
} from '../../core/index.js';
import { createRunner, openSession, type AgentRunner } from '../../core/kits/agent/index.js';
import { summaryLine } from '../../core/kits/store/index.js';

const PREVIEW_CHARS = 240;

/** `/sessions`: one line per session, the current one marked. */
export function formatSessionList(sessions: readonly SessionSummary[], currentId: string | undefined): string {
  if (!sessions.length) return 'No stored sessions in this project yet.';
  const lines = sessions.map((s) => `${s.id === currentId ? '▸' : ' '} ${summaryLine(s)}${s.id === currentId ? '  (this session)' : ''}`);
  return ['Recent sessions of this project (continue one with /resume <id>):', ...lines].join('\n');
}

/**
 * Claims the session (so no other surface writes it), loads it and hands the UI a runner on it.
 * Returns what to show: the session and its last exchange, so the user sees where it left off.
 */
export async function resumeSession(kernel: Kernel, prefix: string, context: SlashCommandContext, switchRunner: (runner: AgentRunner) => void): Promise<string> {
  const ids = await kernel.store().resolve(prefix, kernel.projectRoot);
  if (ids.length === 0) throw new SessionError('ASSISTANT_SESSION_NOT_FOUND', `no stored session starts with "${prefix}"; /sessions lists this project's sessions`);
  if (ids.length > 1)
    throw new SessionError('ASSISTANT_SESSION_AMBIGUOUS', `"${prefix}" matches ${ids.length} sessions (${ids.slice(0, 5).map((id) => id.slice(0, 8)).join(', ')}); type more of the id`);
  const id = ids[0]!;
  if (id === context.sessionId) return `Already in session ${id.slice(0, 8)}.`;

  const current = kernel.session;
  // Claim before reading, so nothing the previous holder writes can be missing from what is loaded.
  const lease = await kernel.store().acquire(id);
  try {
    const snapshot = await kernel.store().load({ kind: 'id', id, projectRoot: kernel.projectRoot });
    if (!snapshot) throw new SessionError('ASSISTANT_SESSION_NOT_FOUND', `session ${id} could not be loaded from the "${kernel.store().name}" store`);
    for (const warning of snapshot.warnings) context.print(`warning: ${warning}`);
    const session = await openSession(kernel, {
      projectRoot: kernel.projectRoot,
      mode: current?.mode ?? kernel.config.permissions?.mode ?? 'default',
      provider: current?.info.provider,
      model: current?.info.model,
      resume: snapshot,
    });
    switchRunner(createRunner(kernel, session));
    return describeResumed(id, session.info.title, session.messages);
  } catch (error) {
    await lease.release().catch(() => undefined);
    throw error;
  }
}

function describeResumed(id: string, title: string | undefined, messages: readonly Message[]): string {
  const lines = [`Resumed session ${id.slice(0, 8)}${title ? ` ${JSON.stringify(title)}` : ''} (${messages.length} messages).`];
  const lastUser = [...messages].reverse().find((m) => m.role === 'user' && (!m.meta?.origin || m.meta.origin === 'user'));
  const lastReply = [...messages].reverse().find((m) => m.role === 'assistant' && messageText(m).trim());
  if (lastUser) lines.push(`  you: ${preview(messageText(lastUser))}`);
  if (lastReply) lines.push(`  assistant: ${preview(messageText(lastReply))}`);
  return lines.join('\n');
}

const preview = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS - 1)}…` : flat;
};
