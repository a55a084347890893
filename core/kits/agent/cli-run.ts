import { AssistantError } from '../../kernel/errors.js';
import type { Kernel } from '../../kernel/kernel-types.js';
import { createRunner } from './runner.js';
import type { AgentRunner } from '../../types/agent.js';
import type { DoneReason } from '../../types/events.js';
import { attachOutput, type OutputFormat } from './headless-output.js';
import { openSessionForRun, type SessionFlags } from './session-for-run.js';
import { reportFailure } from '../../kernel/failure.js';
import { setSurface } from '../../util/surface.js';

/**
 * The flags of a prompt run (`assistant [-p] <prompt>`), as the CLI parsed them. A front end or
 * embedder offering the same flags hands them here and gets the same runs and exit codes.
 */
export interface RunFlags extends SessionFlags {
  /** `-p`: answer once without the interactive UI. */
  print?: boolean;
  /** `--output-format` of a headless run. */
  outputFormat?: OutputFormat;
  /** `--max-turns` as typed (checked here: a positive integer). */
  maxTurns?: string;
  /** Permission rules; bare tool names are also hidden from the model. */
  disallowedTools?: string[];
}

/** Exit status for each way a prompt can end (see the README's table). */
export const EXIT_FOR: Record<DoneReason, number> = {
  completed: 0,
  error: 1,
  max_turns: 4,
  budget: 4,
  tool_failures: 4,
  aborted: 130,
};

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Tool names hidden from the model by `--disallowed-tools` (bare names only; patterns become deny rules). */
function hiddenTools(flags: RunFlags): Set<string> {
  return new Set((flags.disallowedTools ?? []).filter((t) => /^[a-zA-Z0-9_-]+$/.test(t)));
}

/** The main job: `assistant -p "..."` (headless), or the interactive UI when no -p is given on a terminal. Returns the exit code. */
export async function runFromFlags(kernel: Kernel, promptArg: string, flags: RunFlags): Promise<number> {
  const headless = flags.print || !process.stdin.isTTY || !process.stdout.isTTY;
  // Before any session is claimed: the lease says which surface holds it.
  setSurface(headless ? 'headless' : 'terminal');
  if (!headless) return runInteractive(kernel, promptArg.trim() || undefined, flags);
  const prompt = promptArg.trim() || (await readStdin()).trim();
  if (!prompt) throw new AssistantError('ASSISTANT_USAGE', 'no prompt: pass it as an argument (assistant -p "fix the failing test") or on stdin');
  const maxTurns = flags.maxTurns === undefined ? undefined : Number(flags.maxTurns);
  if (maxTurns !== undefined && (!Number.isInteger(maxTurns) || maxTurns < 1))
    throw new AssistantError('ASSISTANT_USAGE', `--max-turns must be a positive integer (got "${flags.maxTurns}")`);

  const runner = await startSession(kernel, flags);
  const session = runner.session;
  const output = attachOutput(kernel, flags.outputFormat ?? 'text', session.info.id);
  const onSignal = () => runner.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const hidden = hiddenTools(flags);
    const result = await runner.run(prompt, {
      limits: maxTurns ? { maxTurns } : undefined,
      toolFilter: hidden.size ? (name) => !hidden.has(name) : undefined,
    });
    output.finish(result);
    return result.error ? reportFailure(kernel, result.error) : EXIT_FOR[result.reason];
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    output.detach();
  }
}

/** Starts the kernel, checks a model is reachable, and opens the session the runner drives. */
async function startSession(kernel: Kernel, flags: SessionFlags): Promise<AgentRunner> {
  await kernel.start();
  // Fail before anything else happens when no model is reachable.
  const provider = kernel.provider();
  const defaults = { provider: provider.name, model: kernel.config.provider?.model ?? provider.defaultModel };
  // stderr first: a headless run's stdin (a pipe, /dev/null) then never gets a stream made for it.
  const session = await openSessionForRun(kernel, flags, defaults, Boolean(process.stderr.isTTY && process.stdin.isTTY));
  kernel.session = session;
  return createRunner(kernel, session);
}

/** Hands the terminal to the UI plugin (the `interactive` hook). */
async function runInteractive(kernel: Kernel, initialPrompt: string | undefined, flags: SessionFlags): Promise<number> {
  if (!kernel.hooks.interactive.isUsed())
    throw new AssistantError('ASSISTANT_USAGE', 'no interactive UI plugin is loaded; pass -p "<prompt>" to run headless, or add a UI plugin (ui-terminal)');
  const runner = await startSession(kernel, flags);
  const code = await kernel.hooks.interactive.promise({ runner, initialPrompt });
  return code ?? 0;
}
