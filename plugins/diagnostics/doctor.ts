import { formatError, type CliCommand, type Kernel } from '../../core/index.js';

interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /** A failed check that stops the agent from working at all. */
  fatal?: boolean;
}

function versionOf(command: string, args: string[]): string | undefined {
  try {
    // node:child_process loads here, with the first check that runs a program: not at every start.
    return process.getBuiltinModule('node:child_process').execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).split('\n')[0]!.trim();
  } catch {
    return undefined;
  }
}

/** Whether a Node version (`v20.19.0`) is one package.json's `engines` admits. */
export function nodeOk(version: string): boolean {
  const [major, minor] = version.slice(1).split('.').map(Number) as [number, number];
  // package.json's engines: require() of an ES module (string-width) needs 20.19+ or 22.12+; 21 has none.
  return (major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major >= 23;
}

/** The configuration, the plugins, what plugins check (`addCheck`) and the provider. */
async function kernelChecks(kernel: Kernel): Promise<Check[]> {
  // What a run would refuse at start is a configuration failure, as it is for the run.
  const problem = kernel.selectionProblem();
  if (problem) return [{ name: 'config', ok: false, detail: formatError(problem), fatal: true }];
  const files = kernel.resolvedConfig.files;
  const checks: Check[] = [
    { name: 'config', ok: true, detail: files.length ? files.join(', ') : 'no config file found; using built-in defaults' },
    { name: 'plugins', ok: true, detail: `${kernel.plugins.length} loaded: ${kernel.plugins.map((p) => p.name).join(', ') || '(none)'}` },
  ];
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
    checks.push({ name: 'provider', ok: false, detail: `${kernel.config.provider?.name ?? '(none selected)'}: ${formatError(error)}`, fatal: true });
  }
  return checks;
}

/** What the machine offers: keys, ripgrep, git. */
function environmentChecks(): Check[] {
  const env = process.env;
  const keys = [
    ['ANTHROPIC_API_KEY', env.ANTHROPIC_API_KEY],
    ['ANTHROPIC_BASE_URL', env.ANTHROPIC_BASE_URL],
    ['OPENAI_API_KEY', env.OPENAI_API_KEY],
    ['OPENAI_BASE_URL', env.OPENAI_BASE_URL],
  ] as const;
  const present = keys.filter(([, v]) => v).map(([k]) => k);
  const rg = versionOf('rg', ['--version']);
  const git = versionOf('git', ['--version']);
  return [
    {
      name: 'provider keys',
      ok: present.length > 0,
      detail: present.length ? `set: ${present.join(', ')}` : 'none of ANTHROPIC_API_KEY, OPENAI_API_KEY, ANTHROPIC_BASE_URL, OPENAI_BASE_URL is set (a local Ollama / LM Studio server works too: provider.baseURL)',
    },
    { name: 'ripgrep', ok: !!rg, detail: rg ?? 'not found: Grep uses the built-in scanner (slower on big trees)' },
    { name: 'git', ok: !!git, detail: git ?? 'not found' },
  ];
}

/** `assistant doctor`: what works on this machine and what to fix. Needs no API key. */
export function doctorCommand(kernel: Kernel): CliCommand {
  return {
    name: 'doctor',
    description: 'check Node, configuration, provider keys, optional tools (ripgrep) and what plugins check (the Bash sandbox, ...)',
    options: [{ flags: '--json', description: 'machine-readable output' }],
    async action(_args, opts) {
      const checks: Check[] = [
        { name: 'node', ok: nodeOk(process.version), detail: `${process.version} (needs 20.19+ or 22.12+)`, fatal: true },
        ...(await kernelChecks(kernel)),
        ...environmentChecks(),
      ];
      if (opts.json) process.stdout.write(JSON.stringify(checks, null, 2) + '\n');
      else for (const c of checks) process.stdout.write(`${c.ok ? 'ok  ' : c.fatal ? 'FAIL' : 'warn'}  ${c.name}: ${c.detail}\n`);
      return checks.some((c) => c.fatal && !c.ok) ? 1 : 0;
    },
  };
}
