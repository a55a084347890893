import { readFileSync } from 'node:fs';
import { definePlugin, errorResult, isInside, realPath, Stage, userDirs, type JsonSchema, type Kernel, type PrepareOutcome, type ToolContext } from '../../core/index.js';
import { addedDirectoriesOf } from '../../core/kits/fs/index.js';
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS } from './limits.js';
import { controlReport, watchControlPaths, type ControlChange } from './control-guard.js';
import type { ControlEntry } from './control-mounts.js';
import type { EnvironmentPolicy } from './env-policy.js';
import { networkLine, networkPermission, type NetworkState } from './network.js';
import { bwrapVersion, probeSandbox, probeSandboxSoon, sandboxArgs, sandboxLikely, sandboxSettings, sandboxUnavailable, sandboxVerdict, type SandboxProbe, type SandboxSettings } from './sandbox.js';
import { BASH_ERRORS } from './errors.js';

/** Options of the tool-bash plugin. */
export interface ToolBashOptions {
  /** The shell to run commands in (default: bash, Git Bash on Windows, else the user's POSIX shell). */
  shell?: string;
  /** More environment variables to remove from commands' environment (provider keys always are). */
  scrubEnv?: string[];
  /** Which environment variables commands see (credentials are removed by default). */
  environment?: EnvironmentPolicy;
  /** Characters of output kept per command, head and tail (default 30000). */
  maxOutputChars?: number;
}

/** What the Bash tool's input schema admits. */
interface BashInput {
  command: string;
  timeout?: number;
  description?: string;
  network?: boolean;
}

/** A little longer than the command's own limit, so the worker reports the timeout itself (with output). */
const RUNTIME_MARGIN_MS = 5_000;

/** Bash's input; `network` is offered only where it means something: commands run sandboxed without network. */
function bashInputSchema(state: NetworkState): JsonSchema {
  return {
    type: 'object',
    properties: {
      command: { type: 'string', minLength: 1, description: 'The command to run.' },
      timeout: { type: 'integer', minimum: 1, maximum: MAX_TIMEOUT_MS, description: 'Time limit in milliseconds (default 120000, max 600000).' },
      description: { type: 'string', description: 'What the command does, in 5-10 words.' },
      ...(state === 'no-network'
        ? { network: { type: 'boolean', description: 'Run this one command with network access (the sandbox has none otherwise); the user is asked.' } }
        : {}),
    },
    required: ['command'],
    additionalProperties: false,
  };
}

/** For the build (config/precompile-schemas.mjs): Bash's input in every shape, whichever one the build machine registers. */
export const precompiledSchemas = (): JsonSchema[] => (['unsandboxed', 'network', 'no-network'] as const).map(bashInputSchema);

export default definePlugin<ToolBashOptions>({
  name: 'tool-bash',
  errors: BASH_ERRORS,
  version: '1.0.0',
  optionsSchema: {
    type: 'object',
    properties: {
      shell: { type: 'string', minLength: 1 },
      scrubEnv: { type: 'array', items: { type: 'string', minLength: 1 } },
      environment: {
        type: 'object',
        properties: {
          inherit: { type: 'string', enum: ['all', 'core', 'none'] },
          ignoreDefaultExcludes: { type: 'boolean' },
          exclude: { type: 'array', items: { type: 'string', minLength: 1 } },
          set: { type: 'object', additionalProperties: { type: 'string' }, required: [] },
          includeOnly: { type: 'array', items: { type: 'string', minLength: 1 } },
        },
        additionalProperties: false,
      },
      maxOutputChars: { type: 'integer', minimum: 1000 },
    },
    additionalProperties: false,
  },
  apply(kernel, options, { logger }) {
    const sandbox = sandboxSettings(kernel.config.sandbox);
    let warned = false;
    /** The probe's verdict for this project and its added folders (a bwrap inside them sandboxes nothing). */
    const verdict = (root = realPath(kernel.projectRoot), added = addedDirectories(kernel)) => sandboxVerdict([root, ...added]);
    /** The bwrap command line for the next command (with network for this one when asked), nothing when it runs unsandboxed, or the refusal. */
    const sandboxFor = (withNetwork = false, control: ControlEntry[] = []): string[] | Error | undefined => {
      if (sandbox.mode === 'off') return undefined;
      const root = realPath(kernel.projectRoot);
      const added = addedDirectories(kernel);
      const probe = verdict(root, added);
      if (!probe.available) {
        if (sandbox.mode === 'required') return sandboxUnavailable(probe);
        if (!warned) logger.info(`Bash commands run without an OS sandbox: ${probe.reason}`);
        warned = true;
        return undefined;
      }
      const settings = withNetwork ? { ...sandbox, network: true } : sandbox;
      return sandboxArgs(settings, root, { hide: hiddenData(kernel), control, added, program: probe.program });
    };
    // The tool is described from what bwrap's trial run will most likely find, and described again
    // when the trial finds otherwise. The trial (a bwrap run: ~5-10 ms of a start's CPU, most of it
    // forking a process of this size) waits for the first sign of a command: the model starting a
    // Bash call, or a call's permission check, which waits for it. A run that never runs a command
    // never forks for it. What a command runs under is always the trial's verdict (sandboxFor).
    const networkStateFor = (sandboxed: boolean): NetworkState => (sandbox.mode === 'off' || !sandboxed ? 'unsandboxed' : sandbox.network ? 'network' : 'no-network');
    let probing: Promise<void> | undefined;
    const probe = () =>
      (probing ??= probeSandboxSoon().then(() => {
        const found = networkStateFor(verdict().available);
        if (found !== networkState && kernel.tools.get('Bash')?.plugin === 'tool-bash') {
          kernel.tools.unregister('Bash');
          registerBash(found);
        }
      }));
    if (sandbox.mode !== 'off') {
      kernel.hooks.event.tap('tool-bash:probe', (event) => {
        if (event.type === 'model' && event.event.type === 'tool_call_start' && event.event.name === 'Bash') void probe();
      });
      kernel.hooks.permission.tapPromise({ name: 'tool-bash:probe', stage: Stage.TOOL_POLICY }, async (request) => {
        if (request.tool === 'Bash') await probe();
        return undefined;
      });
    }
    /** After the trial's layer above (same stage, tapped later): whether commands run sandboxed without network, so `network: true` means something. */
    const cutsNetwork = () => sandbox.mode !== 'off' && !sandbox.network && verdict().available;
    const network = networkPermission('Bash', cutsNetwork);
    kernel.hooks.permission.tapPromise({ name: 'tool-bash:network', stage: network.stage }, network.layer);
    // `required` is checked before any model call, so a run that cannot be sandboxed stops at once.
    if (sandbox.mode === 'required') {
      kernel.hooks.ready.tap({ name: 'tool-bash', stage: Stage.FIRST }, () => void probe());
      kernel.hooks.registerTools.tapPromise('tool-bash', async () => {
        await probe();
        const refusal = sandboxFor();
        if (refusal instanceof Error) throw refusal;
      });
    }
    // The doctor tries bwrap itself rather than trust an earlier run's verdict.
    const checkNow = () => {
      if (sandbox.mode !== 'off') probeSandbox({ trial: true });
      return verdict();
    };
    kernel.hooks.commands.tap('tool-bash', (registry) => registry.addCheck({ name: 'sandbox', run: () => sandboxCheck(sandbox, checkNow) }));

    // Per call: the main thread's watch of the control paths (what its cancel check found, and how
    // to stop listening), and what to tell the model.
    const watches = new Map<string, { check(): ControlChange[]; found: ControlChange[]; stop(): void }>();
    const reports = new Map<string, string>();
    const backstop = (callId: string) => {
      const watch = watches.get(callId);
      if (!watch) return;
      watches.delete(callId);
      watch.stop();
      const changes = [...watch.found, ...watch.check()];
      if (changes.length) reports.set(callId, controlReport(changes));
    };
    /**
     * The main thread's watch of a sandboxed command. A cancel checks (and undoes) at once, before the
     * worker hears of it: a worker terminated after undoing a change itself could no longer say so.
     */
    const watchCall = (callId: string, control: ControlEntry[], signal: AbortSignal | undefined) => {
      const { check } = watchControlPaths(control);
      const found: ControlChange[] = [];
      const onCancel = () => found.push(...check());
      signal?.addEventListener('abort', onCancel, { once: true });
      watches.set(callId, { check, found, stop: () => signal?.removeEventListener('abort', onCancel) });
    };

    // The shell's working directory per session and agent: kept here, handed to each command.
    const cwds = new Map<string, string>();
    const key = (context: ToolContext) => `${context.sessionId ?? ''}\0${context.agentId ?? ''}`;
    const limit = (input: BashInput) => Math.min(typeof input.timeout === 'number' ? input.timeout : DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS);
    let networkState = networkStateFor(sandboxLikely());
    const registerBash = (state: NetworkState) => {
      networkState = state;
      kernel.tools.register<BashInput>({
        name: 'Bash',
        plugin: 'tool-bash',
        description: `${readFileSync(new URL('./bash.txt', import.meta.url), 'utf8').trim()}\n${networkLine(state)}`,
        inputSchema: bashInputSchema(state),
        // Any command may touch anything: the policy parses the command for what it touches, and a
        // policy plugin that proves a command read-only says so to the scheduler through the lockSet hook.
        access: () => ({ reads: [], writes: ['*'] }),
        // Passed on as given: the policy refuses a command that is not a string.
        risk: { category: 'execute', command: (input) => input.command },
        module: new URL('./bash.worker.js', import.meta.url).href,
        options: {
          ...(options.shell ? { shell: options.shell } : {}),
          scrubEnv: [...(options.scrubEnv ?? []), ...configuredKeyEnv(kernel)],
          ...(options.environment ? { environment: { ...options.environment } } : {}),
          ...(options.maxOutputChars ? { maxOutputChars: options.maxOutputChars } : {}),
        },
        timeoutMs: (input) => limit(input) + RUNTIME_MARGIN_MS,
        summarize: (input) => `${String(input.description ?? input.command ?? '')}${input.network === true ? ' (with network)' : ''}`,
        prepare: (input, context): PrepareOutcome => {
          const withNetwork = input.network === true;
          const cwd = cwds.get(key(context)) ?? realPath(kernel.cwd);
          const control = sandbox.mode === 'off' ? [] : controlPaths(kernel, cwd);
          const wrap = sandboxFor(withNetwork, control);
          if (wrap instanceof Error) return { result: errorResult('ASSISTANT_SANDBOX_UNAVAILABLE', wrap.message) };
          if (!wrap) return { state: { cwd } };
          // The guard in the worker watches the same control paths the mounts protect; this one, on
          // the main thread, backs it up for a worker that was terminated before it could report.
          watchCall(context.callId, control, context.signal);
          return { state: { cwd, sandbox: wrap, control, network: withNetwork || sandbox.network } };
        },
        settle: (result, _input, context) => {
          const cwd = result.metadata?.cwd;
          if (typeof cwd === 'string') cwds.set(key(context), cwd);
          // Still under the call's lock: the next command's snapshot never sees this one's changes.
          backstop(context.callId);
        },
      });
    };
    registerBash(networkState);
    kernel.hooks.afterToolCall.tapPromise('tool-bash:control-files', async (part, { call }) => {
      if (call.name !== 'Bash') return part;
      backstop(call.id); // when `settle` did not run (a call that threw)
      const report = reports.get(call.id);
      if (!report) return part;
      reports.delete(call.id);
      return { ...part, isError: true, content: [...part.content, { type: 'text', text: report }], metadata: { ...part.metadata, code: 'ASSISTANT_SANDBOX_CONTROL_FILE' } };
    });
  },
});

/** The variable the configured provider reads its key from (`provider.apiKeyEnv`), when it is not a well-known one. */
function configuredKeyEnv(kernel: Kernel): string[] {
  const name = kernel.config.provider?.apiKeyEnv;
  return typeof name === 'string' && name ? [name] : [];
}

/** Session data (transcripts may hold what the user pasted) is hidden from commands, unless the project lives in it. */
function hiddenData(kernel: Kernel): string[] {
  const data = userDirs().data;
  return isInside(realPath(kernel.projectRoot), realPath(data)) ? [] : [data];
}

/** The control paths of the project (its config searched from the agent's directory up), as plain data for the sandbox and the worker. */
function controlPaths(kernel: Kernel, shellCwd?: string): ControlEntry[] {
  const root = realPath(kernel.projectRoot);
  // From where the agent started (what the config loader reads) and from where the shell is now (memory files of that folder).
  const starts = [...new Set([realPath(kernel.cwd), ...(shellCwd ? [shellCwd] : [])])];
  const byPath = new Map<string, ControlEntry>();
  // An added directory's own control files (its config, its git hooks), seen from its top.
  const places = [...starts.map((start) => [root, start] as const), ...addedDirectories(kernel).map((dir) => [dir, dir] as const)];
  for (const [top, start] of places)
    for (const { path, why, dir, whileKey } of kernel.controlFiles.paths(top, start, { pending: true })) if (!byPath.has(path)) byPath.set(path, { path, why, dir, ...(whileKey ? { whileKey } : {}) });
  return [...byPath.values()];
}

/** The added directories (`--add-dir`, `/add-dir`) as real paths; configured ones only when the list checks out (the policy refuses such a start). */
function addedDirectories(kernel: Kernel): string[] {
  return addedDirectoriesOf(kernel, realPath(kernel.projectRoot));
}

/** The `assistant doctor` line: what Bash commands run under. */
function sandboxCheck(settings: SandboxSettings, verdict: () => SandboxProbe) {
  if (settings.mode === 'off') return { ok: true, detail: 'off: Bash commands run unconfined (sandbox: off)' };
  const probe = verdict();
  if (!probe.available) {
    const required = settings.mode === 'required';
    return { ok: false, fatal: required, detail: `${probe.reason}; ${required ? 'sandbox: required, so Bash commands will not run' : 'Bash commands run without an OS sandbox (sandbox: auto)'}` };
  }
  const parts = [
    `no capabilities even as root, ${probe.userNamespace ? 'own user namespace (none nested)' : 'no user namespace here'}, own session and PID namespace`,
    `writable: the project, ${settings.writable.length ? `${settings.writable.join(', ')}, ` : ''}the temp directory`,
    "the agent's control files read-only (changes undone)",
    settings.network ? 'network on' : 'network off (network: true asks the user)',
    'secrets hidden',
  ];
  return { ok: true, detail: `${bwrapVersion()}: Bash commands run sandboxed: ${parts.join('; ')} (sandbox: ${settings.mode})` };
}
