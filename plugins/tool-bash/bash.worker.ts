import { statSync } from 'node:fs';
import { displayPath, errorResult, isInside, realPath, textResult, type ToolResult, type WorkerContext, type WorkerTask } from '../../core/kits/tool/index.js';
import { cleanOutput, HeadTailBuffer } from './output.js';
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS } from './limits.js';
import { commandEnv, killTree, pickShell, spawnCommand } from './spawn.js';
import { controlReport, watchControlPaths, type ControlChange } from './control-guard.js';
import type { ControlEntry } from './control-mounts.js';
import type { EnvironmentPolicy } from './env-policy.js';
import { networkNote } from './network-note.js';

/** Output kept per command (head and tail). */
const DEFAULT_MAX_OUTPUT = 30_000;
/** After SIGTERM, how long the command gets before SIGKILL. */
const KILL_GRACE_MS = 1_000;
/** After the shell exits, how long to wait for output still in the pipes (background jobs may hold them open). */
const DRAIN_MS = 200;

interface Outcome {
  output: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  finalCwd: string | undefined;
  stoppedBy?: 'timeout' | 'cancel';
}

function startDirectory(task: WorkerTask): { cwd: string; note?: string } {
  const kept = typeof task.state.cwd === 'string' ? task.state.cwd : task.projectRoot;
  try {
    if (!statSync(kept).isDirectory()) throw new Error('not a directory');
    return { cwd: isInside(kept, task.projectRoot) ? kept : task.projectRoot };
  } catch {
    // Removed since the last command.
  }
  return { cwd: task.projectRoot, note: `(The previous working directory ${kept} is gone; this command ran in the project root.)` };
}

function runCommand(shell: string, command: string, cwd: string, timeoutMs: number, task: WorkerTask, context: WorkerContext): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const limit = typeof task.options.maxOutputChars === 'number' ? task.options.maxOutputChars : DEFAULT_MAX_OUTPUT;
    const scrub = Array.isArray(task.options.scrubEnv) ? task.options.scrubEnv.map(String) : [];
    const sandbox = Array.isArray(task.state.sandbox) ? task.state.sandbox.map(String) : undefined;
    const policy = (task.options.environment ?? {}) as EnvironmentPolicy;
    const child = spawnCommand(shell, command, cwd, commandEnv(policy, scrub), sandbox);
    const output = new HeadTailBuffer(limit);
    let finalCwd = '';
    let stoppedBy: Outcome['stoppedBy'];
    if (child.pid) context.trackProcess(child.pid);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => output.push(chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => output.push(chunk));
    const cwdPipe = child.stdio[3] as NodeJS.ReadableStream | undefined;
    cwdPipe?.setEncoding('utf8');
    cwdPipe?.on('data', (chunk: string) => (finalCwd += chunk));
    let killTimer: NodeJS.Timeout | undefined;
    const stop = (why: NonNullable<Outcome['stoppedBy']>) => {
      if (stoppedBy || !child.pid) return;
      stoppedBy = why;
      killTree(child.pid, 'SIGTERM');
      killTimer = setTimeout(() => killTree(child.pid!, 'SIGKILL'), KILL_GRACE_MS);
    };
    const timer = setTimeout(() => stop('timeout'), timeoutMs);
    const onAbort = () => stop('cancel');
    context.signal.addEventListener('abort', onAbort, { once: true });
    if (context.signal.aborted) onAbort();
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      context.signal.removeEventListener('abort', onAbort);
      // A stopped command's group is killed outright so nothing it started lingers.
      if (stoppedBy && child.pid) killTree(child.pid, 'SIGKILL');
      clearTimeout(killTimer);
      const streams = [child.stdout!, child.stderr!, cwdPipe].filter((s): s is NodeJS.ReadableStream => !!s);
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(drainTimer);
        for (const stream of streams) (stream as NodeJS.ReadableStream & { destroy(): void }).destroy();
        resolve({ output: output.toString(), code, signal, finalCwd: finalCwd.trim() || undefined, stoppedBy });
      };
      const drainTimer = setTimeout(finish, DRAIN_MS);
      let open = 0;
      for (const stream of streams)
        if (!(stream as NodeJS.ReadableStream & { readableEnded: boolean }).readableEnded) {
          open++;
          stream.once('end', () => --open === 0 && finish());
        }
      if (open === 0) finish();
    });
  });
}

/** Bash: runs a command in the kept working directory, with a time limit, capped output and the exit code. */
export async function run(task: WorkerTask, context: WorkerContext): Promise<ToolResult> {
  const input = task.input as { command: string; timeout?: number };
  const shell = pickShell(typeof task.options.shell === 'string' ? task.options.shell : undefined);
  if (!shell) return errorResult('ASSISTANT_TOOL_FAILED', 'No bash found. On Windows, install Git for Windows (Git Bash) or set the tool-bash option "shell".');
  const timeoutMs = Math.min(input.timeout ?? DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS);
  const start = startDirectory(task);
  const sandboxed = Array.isArray(task.state.sandbox);
  // Control paths are watched only under the sandbox: unconfined, the user chose to trust commands.
  const guard = sandboxed && Array.isArray(task.state.control) ? watchControlPaths(task.state.control as unknown as ControlEntry[]) : undefined;
  let outcome: Outcome;
  let changes: ControlChange[] = [];
  try {
    outcome = await runCommand(shell, input.command, start.cwd, timeoutMs, task, context);
  } finally {
    // Even when the command could not start: whatever happened is undone before anyone reads config again.
    changes = guard?.check() ?? [];
  }

  const notes: string[] = start.note ? [start.note] : [];
  let cwd = outcome.finalCwd ? realPath(outcome.finalCwd) : start.cwd;
  if (!isInside(cwd, task.projectRoot)) {
    notes.push(`(The shell ended in ${cwd}, outside the project; the next command starts in the project root.)`);
    cwd = task.projectRoot;
  }
  if (outcome.stoppedBy === 'timeout') notes.push(`Command timed out after ${timeoutMs / 1000} s and was stopped (with everything it started).`);
  else if (outcome.stoppedBy === 'cancel') notes.push('Command was cancelled and stopped (with everything it started).');
  else if (outcome.code !== 0) notes.push(outcome.code === null ? `Command was killed by ${outcome.signal}.` : `Exit code ${outcome.code}`);
  const text = cleanOutput(outcome.output);
  const failed = outcome.stoppedBy !== undefined || outcome.code !== 0;
  const network = task.state.network === true;
  if (failed && sandboxed && !network) {
    const note = networkNote(text);
    if (note) notes.push(note);
  }
  const body = [text || '(no output)', ...notes].join('\n');
  const metadata = {
    exitCode: outcome.code,
    cwd,
    cwdShown: displayPath(cwd, task.projectRoot),
    sandboxed,
    network,
    ...(outcome.stoppedBy ? { stoppedBy: outcome.stoppedBy } : {}),
  };
  if (changes.length) return errorResult('ASSISTANT_SANDBOX_CONTROL_FILE', `${body}\n${controlReport(changes)}`, { ...metadata, controlFiles: changes.map((c) => c.path) });
  return failed ? { ...errorResult(outcome.stoppedBy === 'timeout' ? 'ASSISTANT_TOOL_TIMEOUT' : outcome.stoppedBy === 'cancel' ? 'ASSISTANT_TOOL_ABORTED' : 'ASSISTANT_TOOL_FAILED', body, metadata) } : textResult(body, metadata);
}

