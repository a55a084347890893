import { readFileSync } from 'node:fs';
import { definePlugin, errorResult, isInside, realPath, userDirs, type Kernel, type ToolContext } from '../../core/index.js';
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS } from './limits.js';
import { probeSandbox, sandboxArgs, sandboxSettings, sandboxUnavailable, type SandboxSettings } from './sandbox.js';

/** Options of the tool-bash plugin. */
export interface ToolBashOptions {
  /** The shell to run commands in (default: bash, Git Bash on Windows, else the user's POSIX shell). */
  shell?: string;
  /** More environment variables to remove from commands' environment (provider keys always are). */
  scrubEnv?: string[];
  /** Characters of output kept per command, head and tail (default 30000). */
  maxOutputChars?: number;
}

/** A little longer than the command's own limit, so the worker reports the timeout itself (with output). */
const RUNTIME_MARGIN_MS = 5_000;

export default definePlugin<ToolBashOptions>({
  name: 'tool-bash',
  version: '1.0.0',
  optionsSchema: {
    type: 'object',
    properties: {
      shell: { type: 'string', minLength: 1 },
      scrubEnv: { type: 'array', items: { type: 'string', minLength: 1 } },
      maxOutputChars: { type: 'integer', minimum: 1000 },
    },
    additionalProperties: false,
  },
  apply(kernel, options, { logger }) {
    const sandbox = sandboxSettings(kernel.config.sandbox);
    let warned = false;
    /** The bwrap command line for the next command, nothing when it runs unsandboxed, or the refusal. */
    const sandboxFor = (): string[] | Error | undefined => {
      if (sandbox.mode === 'off') return undefined;
      const probe = probeSandbox();
      if (!probe.available) {
        if (sandbox.mode === 'required') return sandboxUnavailable(probe);
        if (!warned) logger.info(`Bash commands run without an OS sandbox: ${probe.reason}`);
        warned = true;
        return undefined;
      }
      return sandboxArgs(sandbox, realPath(kernel.projectRoot), { hide: hiddenData(kernel) });
    };
    // `required` is checked before any model call, so a run that cannot be sandboxed stops at once.
    kernel.hooks.ready.tapPromise('tool-bash', async () => {
      const refusal = sandbox.mode === 'required' ? sandboxFor() : undefined;
      if (refusal instanceof Error) throw refusal;
    });
    kernel.hooks.commands.tap('tool-bash', (registry) => registry.addCheck({ name: 'sandbox', run: () => sandboxCheck(sandbox) }));

    // The shell's working directory per session and agent: kept here, handed to each command.
    const cwds = new Map<string, string>();
    const key = (context: ToolContext) => `${context.sessionId ?? ''}\0${context.agentId ?? ''}`;
    const limit = (input: Record<string, unknown>) => Math.min(typeof input.timeout === 'number' ? input.timeout : DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS);
    kernel.tools.register({
      name: 'Bash',
      description: readFileSync(new URL('./bash.txt', import.meta.url), 'utf8').trim(),
      inputSchema: {
        type: 'object',
        properties: {
          command: { type: 'string', minLength: 1, description: 'The command to run.' },
          timeout: { type: 'integer', minimum: 1, maximum: MAX_TIMEOUT_MS, description: 'Time limit in milliseconds (default 120000, max 600000).' },
          description: { type: 'string', description: 'What the command does, in 5-10 words.' },
        },
        required: ['command'],
        additionalProperties: false,
      },
      // Any command may touch anything; a policy plugin that proves a command read-only says so through the lockSet hook.
      access: () => ({ reads: [], writes: ['*'] }),
      // Passed on as given: the policy refuses a command that is not a string.
      risk: { category: 'execute', command: (input) => input.command as string | undefined },
      module: new URL('./bash.worker.js', import.meta.url).href,
      options: {
        ...(options.shell ? { shell: options.shell } : {}),
        scrubEnv: [...(options.scrubEnv ?? []), ...configuredKeyEnv(kernel)],
        ...(options.maxOutputChars ? { maxOutputChars: options.maxOutputChars } : {}),
      },
      timeoutMs: (input) => limit(input) + RUNTIME_MARGIN_MS,
      summarize: (input) => String(input.description ?? input.command ?? ''),
      prepare: (_input, context) => {
        const wrap = sandboxFor();
        if (wrap instanceof Error) return { result: errorResult('ASSISTANT_SANDBOX_UNAVAILABLE', wrap.message) };
        return { state: { cwd: cwds.get(key(context)) ?? realPath(kernel.cwd), ...(wrap ? { sandbox: wrap } : {}) } };
      },
      settle: (result, _input, context) => {
        const cwd = result.metadata?.cwd;
        if (typeof cwd === 'string') cwds.set(key(context), cwd);
      },
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

/** The `assistant doctor` line: what Bash commands run under. */
function sandboxCheck(settings: SandboxSettings) {
  if (settings.mode === 'off') return { ok: true, detail: 'off: Bash commands run unconfined (sandbox: off)' };
  const probe = probeSandbox();
  if (!probe.available) {
    const required = settings.mode === 'required';
    return { ok: false, fatal: required, detail: `${probe.reason}; ${required ? 'sandbox: required, so Bash commands will not run' : 'Bash commands run without an OS sandbox (sandbox: auto)'}` };
  }
  const allowed = [`the project and ${settings.writable.length ? `${settings.writable.join(', ')} and ` : ''}the temp directory writable`, settings.network ? 'network on' : 'network off', 'secrets hidden'];
  return { ok: true, detail: `${probe.version}: Bash commands run sandboxed (${allowed.join(', ')}; sandbox: ${settings.mode})` };
}
