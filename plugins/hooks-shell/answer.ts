import type { HookEvent } from './options.js';
import type { CommandRun } from './run-command.js';

/** What one command answered, read from its exit status and output. */
export interface HookAnswer {
  /** Block (PreToolUse, UserPromptSubmit), keep going (Stop), or tell the model (PostToolUse): the reason. */
  block?: string;
  /** PreToolUse: the tool input to use instead. */
  updatedInput?: Record<string, unknown>;
  /** Text for the model (PostToolUse, UserPromptSubmit, SessionStart). */
  context?: string;
  /** Shown to the user (`systemMessage`). */
  message?: string;
  /** A non-blocking failure to report: what went wrong, for people. */
  problem?: string;
}

/** Longest context a command may add; the rest is cut with a note. */
export const MAX_CONTEXT_CHARS = 10_000;

/** Which answer fields mean something for which event. */
const APPLIES: Record<'block' | 'updatedInput' | 'context', ReadonlySet<HookEvent>> = {
  block: new Set(['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop']),
  updatedInput: new Set(['PreToolUse']),
  context: new Set(['PostToolUse', 'UserPromptSubmit', 'SessionStart']),
};
/** Events where plain (non-JSON) stdout of a successful command is context for the model. */
const PLAIN_STDOUT_IS_CONTEXT: ReadonlySet<HookEvent> = new Set(['UserPromptSubmit', 'SessionStart']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function firstLines(text: string, max = 400): string {
  const t = text.trim();
  return t.length > max ? `${t.slice(0, max)}...` : t;
}

function cap(text: string): string {
  return text.length > MAX_CONTEXT_CHARS ? `${text.slice(0, MAX_CONTEXT_CHARS)}\n[cut: the hook's output was ${text.length} characters]` : text;
}

/** Why a command counts as failed, or undefined when it ran to an exit status. */
function failure(run: CommandRun, timeoutMs: number): string | undefined {
  if (run.spawnError) return `could not be started: ${run.spawnError}`;
  if (run.timedOut) return `did not finish within ${timeoutMs / 1000} s and was killed, with everything it started (raise its "timeout" if it needs longer)`;
  if (run.code === null) return `was killed by ${run.signal ?? 'a signal'}`;
  if (run.code === 126) return `is not executable (exit status 126)${run.stderr.trim() ? `: ${firstLines(run.stderr)}` : ''}; check the file's execute permission`;
  if (run.code === 127) return `was not found (exit status 127)${run.stderr.trim() ? `: ${firstLines(run.stderr)}` : ''}`;
  if (run.code !== 0 && run.code !== 2) return `exited with status ${run.code}${run.stderr.trim() ? `: ${firstLines(run.stderr)}` : ' (no output on stderr)'}`;
  return undefined;
}

/**
 * Reads a command's answer: exit 0 (stdout may hold a JSON answer, or plain context), exit 2
 * (block, stderr is the reason), anything else a non-blocking failure. A field that does not
 * apply to the event is reported, never silently ignored.
 */
export function readAnswer(event: HookEvent, run: CommandRun, timeoutMs: number): HookAnswer {
  if (run.aborted) return {};
  const failed = failure(run, timeoutMs);
  if (failed) return { problem: failed };
  if (run.code === 2) {
    const reason = run.stderr.trim() || 'no reason given (the command exited with status 2 and wrote nothing on stderr)';
    return APPLIES.block.has(event) ? { block: reason } : { problem: `exited with status 2, but ${event} hooks cannot block: ${firstLines(reason)}` };
  }
  const stdout = run.stdout.trim();
  if (!stdout.startsWith('{')) return stdout && PLAIN_STDOUT_IS_CONTEXT.has(event) ? { context: cap(stdout) } : {};
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch (error) {
    return { problem: `answered on stdout with something that is not valid JSON (${(error as Error).message}): ${firstLines(stdout, 200)}` };
  }
  return fromJson(event, json as Record<string, unknown>);
}

/** Reads a JSON answer: `decision`/`reason`, `updatedInput`, `additionalContext`, `systemMessage`, or Claude Code's `hookSpecificOutput`. */
function fromJson(event: HookEvent, json: Record<string, unknown>): HookAnswer {
  const answer: HookAnswer = {};
  const problems: string[] = [];
  const specific = isObject(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  const notFor = (field: string) => problems.push(`"${field}" does not apply to ${event} hooks and was ignored`);

  const reasonOf = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : 'no reason given');
  if (json.decision !== undefined) {
    if (json.decision === 'block') APPLIES.block.has(event) ? (answer.block = reasonOf(json.reason)) : notFor('decision');
    else problems.push(`"decision": ${JSON.stringify(json.decision)} is not understood (only "block" is: a hook can refuse, never grant permission) and was ignored`);
  }
  const permission = specific.permissionDecision;
  if (permission !== undefined) {
    if (permission === 'deny' && event === 'PreToolUse') answer.block ??= reasonOf(specific.permissionDecisionReason);
    else problems.push(`"permissionDecision": ${JSON.stringify(permission)} was ignored: a hook can deny a call, never grant permission (the permission engine decides)`);
  }

  const updated = json.updatedInput ?? specific.updatedInput;
  if (updated !== undefined) {
    if (!APPLIES.updatedInput.has(event)) notFor('updatedInput');
    else if (!isObject(updated)) problems.push('"updatedInput" must be an object (the whole tool input) and was ignored');
    else answer.updatedInput = updated;
  }

  const context = json.additionalContext ?? specific.additionalContext;
  if (context !== undefined) {
    if (!APPLIES.context.has(event)) notFor('additionalContext');
    else if (typeof context !== 'string') problems.push('"additionalContext" must be a string and was ignored');
    else if (context.trim()) answer.context = cap(context.trim());
  }

  if (typeof json.systemMessage === 'string' && json.systemMessage.trim()) answer.message = json.systemMessage.trim();
  if (json.continue === false) problems.push('"continue": false is not supported and was ignored; use "decision": "block" with a "reason"');
  if (problems.length) answer.problem = problems.join('; ');
  return answer;
}
