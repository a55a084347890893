import type { Logger, ProjectFiles } from '../../core/index.js';
import { readAnswer } from './answer.js';
import type { CompiledCommand, HookEvent } from './options.js';
import { runCommand } from './run-command.js';

/** The event as a command reads it on stdin (snake_case, as Claude Code's hooks receive it). */
export type HookInput = { hook_event_name: HookEvent; session_id?: string; cwd: string; project_root: string } & Record<string, unknown>;

/** What the commands of one event decided together. */
export interface EventOutcome {
  /** The first block, and which command said so. */
  block?: { reason: string; command: CompiledCommand };
  /** PreToolUse: the input after every rewrite, when one was made. */
  input?: Record<string, unknown>;
  /** Context for the model, per command, in order. */
  contexts: Array<{ text: string; command: CompiledCommand }>;
}

/** What running commands needs from the plugin. */
export interface DispatchDeps {
  projectRoot: string;
  files: ProjectFiles;
  logger: Logger;
  /** Tells the user (a warning notice): a failure, or a command's `systemMessage`. */
  report(message: string, failed: boolean): void;
}

/** How a command is named in reports: the event and the command, cut if long. */
export function labelOf(command: CompiledCommand): string {
  const text = command.command.length > 80 ? `${command.command.slice(0, 77)}...` : command.command;
  return `${command.event} hook \`${text}\``;
}

/**
 * Runs the commands whose matcher matches `target`, one after another in config order: each sees
 * the input as rewritten by those before it, and the first block stops the rest. Failures are
 * reported and skipped; nothing here throws.
 */
export async function runEvent(deps: DispatchDeps, commands: readonly CompiledCommand[], target: string, input: HookInput, signal?: AbortSignal): Promise<EventOutcome> {
  const outcome: EventOutcome = { contexts: [] };
  const env = { ...process.env, ASSISTANT_PROJECT_DIR: deps.projectRoot, CLAUDE_PROJECT_DIR: deps.projectRoot, ...(input.session_id ? { ASSISTANT_SESSION_ID: input.session_id } : {}) };
  let current = input;
  for (const command of commands) {
    if (!command.matches(target)) continue;
    if (signal?.aborted) break;
    const label = labelOf(command);
    const started = performance.now();
    const run = await runCommand(command.command, { cwd: deps.projectRoot, env, input: JSON.stringify(current), timeoutMs: command.timeoutMs, signal });
    // A hook may have changed any file: caches of file contents must not be trusted past it.
    deps.files.changed(['*']);
    deps.logger.debug(`${label}: exit ${run.code ?? run.signal ?? 'none'} in ${Math.round(performance.now() - started)} ms`);
    const answer = readAnswer(command.event, run, command.timeoutMs);
    if (answer.problem) deps.report(`${label} ${answer.problem}`, true);
    if (answer.message) deps.report(`${label}: ${answer.message}`, false);
    if (answer.context) outcome.contexts.push({ text: answer.context, command });
    if (answer.updatedInput) {
      outcome.input = answer.updatedInput;
      current = { ...current, tool_input: answer.updatedInput };
    }
    if (answer.block !== undefined) {
      outcome.block = { reason: answer.block, command };
      break;
    }
  }
  return outcome;
}

/** Context from hooks as the model sees it: tagged with the event and command it came from. */
export function contextText(item: { text: string; command: CompiledCommand }, decision?: 'block'): string {
  const { event, command } = item.command;
  return `<hook event="${event}" command=${JSON.stringify(command)}${decision ? ` decision="${decision}"` : ''}>\n${item.text}\n</hook>`;
}
