import { randomUUID } from 'node:crypto';
import type { Kernel, ToolCallPart, ToolResultPart } from '../../../core/index.js';
import { sessionConversation, type AgentRunner } from '../../../core/kits/agent/index.js';
import { SHELL_CALL_PREFIX, shellNote } from './note.js';

/** Results that mean nothing ran: the model is not told about them. */
const NOTHING_RAN = new Set(['ASSISTANT_TOOL_DENIED', 'ASSISTANT_TOOL_ABORTED']);

/**
 * Runs what the user typed after `!` as a call of the Bash tool through the kernel's tool
 * pipeline: the same permission layers, approval and sandbox as the model's commands, never a
 * second way to the shell. What ran, and its output, join the conversation for the next prompt.
 */
export async function runShellCommand(kernel: Kernel, runner: AgentRunner, command: string, options: { signal: AbortSignal; model?: string }): Promise<{ result: ToolResultPart; noted: boolean }> {
  const call: ToolCallPart = { type: 'tool_call', id: `${SHELL_CALL_PREFIX}${randomUUID()}`, name: 'Bash', input: { command, description: 'run by the user with !' } };
  const session = runner.session;
  const [result] = await kernel.runToolCalls([call], { mode: session.mode, signal: options.signal, turn: 0, sessionId: session.info.id, model: options.model });
  const code = result!.metadata?.code;
  if (options.signal.aborted || (typeof code === 'string' && NOTHING_RAN.has(code))) return { result: result!, noted: false };
  await sessionConversation(session).append(shellNote(command, result!));
  return { result: result!, noted: true };
}
