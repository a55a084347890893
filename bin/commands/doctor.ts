import { execFileSync } from 'node:child_process';
import type { Command } from 'commander';
import { formatError } from '../../core/kernel/errors.js';
import { boot, type CommonFlags } from '../boot.js';

interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /** A failed check that stops the agent from working at all. */
  fatal?: boolean;
}

function versionOf(command: string, args: string[]): string | undefined {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).split('\n')[0]!.trim();
  } catch {
    return undefined;
  }
}

function nodeOk(version: string): boolean {
  const [major, minor] = version.slice(1).split('.').map(Number) as [number, number];
  return major > 20 || (major === 20 && minor >= 19);
}

/** `assistant doctor`: what works on this machine and what to fix. Needs no API key. */
export function registerDoctorCommand(program: Command, exit: { code: number }): void {
  program
    .command('doctor')
    .description('check Node, configuration, provider keys, optional tools (ripgrep) and what plugins check (the Bash sandbox, ...)')
    .option('--json', 'machine-readable output')
    .action(async (_o: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<CommonFlags & { json?: boolean }>();
      const checks: Check[] = [];
      checks.push({ name: 'node', ok: nodeOk(process.version), detail: `${process.version} (needs >= 20.19)`, fatal: true });
      let providerName: string | undefined;
      try {
        const kernel = await boot(opts, true);
        const files = kernel.resolvedConfig.files;
        providerName = kernel.config.provider?.name;
        checks.push({ name: 'config', ok: true, detail: files.length ? files.join(', ') : 'no config file found; using built-in defaults' });
        checks.push({ name: 'plugins', ok: true, detail: `${kernel.plugins.length} loaded: ${kernel.plugins.map((p) => p.name).join(', ') || '(none)'}` });
        kernel.hooks.commands.call(kernel.commands);
        for (const check of kernel.commands.listChecks()) {
          try {
            checks.push({ name: check.name, ...(await check.run()) });
          } catch (error) {
            checks.push({ name: check.name, ok: false, detail: `the check failed: ${formatError(error)}` });
          }
        }
        // Without a working provider nothing can run: that fails the doctor, whatever else is fine.
        try {
          const provider = kernel.provider();
          checks.push({ name: 'provider', ok: true, detail: `${provider.name}, model ${kernel.config.provider?.model ?? '(provider default)'}` });
        } catch (error) {
          checks.push({ name: 'provider', ok: false, detail: `${providerName ?? '(none selected)'}: ${formatError(error)}`, fatal: true });
        }
      } catch (error) {
        checks.push({ name: 'config', ok: false, detail: formatError(error), fatal: true });
      }
      const env = process.env;
      const keys = [
        ['ANTHROPIC_API_KEY', env.ANTHROPIC_API_KEY],
        ['ANTHROPIC_BASE_URL', env.ANTHROPIC_BASE_URL],
        ['OPENAI_API_KEY', env.OPENAI_API_KEY],
        ['OPENAI_BASE_URL', env.OPENAI_BASE_URL],
      ] as const;
      const present = keys.filter(([, v]) => v).map(([k]) => k);
      checks.push({
        name: 'provider keys',
        ok: present.length > 0,
        detail: present.length ? `set: ${present.join(', ')}` : 'none of ANTHROPIC_API_KEY, OPENAI_API_KEY, ANTHROPIC_BASE_URL, OPENAI_BASE_URL is set (a local Ollama / LM Studio server works too: provider.baseURL)',
      });
      const rg = versionOf('rg', ['--version']);
      checks.push({ name: 'ripgrep', ok: !!rg, detail: rg ?? 'not found: Grep uses the built-in scanner (slower on big trees)' });
      const git = versionOf('git', ['--version']);
      checks.push({ name: 'git', ok: !!git, detail: git ?? 'not found' });

      if (opts.json) process.stdout.write(JSON.stringify(checks, null, 2) + '\n');
      else for (const c of checks) process.stdout.write(`${c.ok ? 'ok  ' : c.fatal ? 'FAIL' : 'warn'}  ${c.name}: ${c.detail}\n`);
      exit.code = checks.some((c) => c.fatal && !c.ok) ? 1 : 0;
    });
}
