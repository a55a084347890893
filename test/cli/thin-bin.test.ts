// bin/ only parses flags, loads config, boots the kernel and hands off (issue #16): subcommands with
// logic come from plugins through the `commands` hook, and the CLI shows and runs them like its own.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { isolatedEnv, makeProject } from '../support/project.js';

const ROOT = resolve(import.meta.dirname, '../..');
const env = isolatedEnv();

/** Non-empty lines (comments included) of every .ts file under bin/. */
function binLines(): Record<string, number> {
  const files = readdirSync(join(ROOT, 'bin'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  return Object.fromEntries(files.map((f) => [f, readFileSync(join(ROOT, 'bin', f), 'utf8').split('\n').filter((l) => l.trim()).length]));
}

describe('bin/', () => {
  it('stays under 300 non-empty lines', () => {
    const lines = binLines();
    const total = Object.values(lines).reduce((a, b) => a + b, 0);
    expect(total, JSON.stringify(lines, null, 2)).toBeLessThanOrEqual(300);
  });

  it('imports no plugin: the built-ins reach the CLI through the loader like any package', () => {
    for (const file of Object.keys(binLines())) expect(readFileSync(join(ROOT, 'bin', file), 'utf8'), file).not.toMatch(/from '[./]*plugins\//);
  });
});

describe('subcommands contributed by plugins', () => {
  it('are listed by --help and by `assistant help`, each with its description', async () => {
    const dir = makeProject();
    for (const argv of [['--help'], ['help']]) {
      const r = await runCli(argv, { cwd: dir, env });
      expect(r.code, argv.join(' ')).toBe(0);
      const help = r.stdout.replace(/\s+/g, ' ');
      expect(help).toContain('sessions list, inspect, export and remove stored sessions');
      expect(help).toContain('doctor [options] check Node, configuration');
      expect(help).toContain('plugins [options] list loaded plugins');
      expect(help).toContain('replay [options] <id> re-run a recorded session offline');
      expect(help).toContain('config show, check or create configuration');
    }
    const sessions = await runCli(['sessions', '--help'], { cwd: dir, env });
    for (const sub of ['list', 'show', 'export', 'delete', 'prune', 'audit']) expect(sessions.stdout).toMatch(new RegExp(`^  ${sub}\\b`, 'm'));
  });

  it('go away with the plugin that contributes them', async () => {
    // `sessions rewind` comes from checkpoints: the group goes only when both plugins that add to it go.
    const dir = makeProject({ '.assistantrc': 'plugins:\n  - [session-commands, false]\n  - [diagnostics, false]\n  - [checkpoints, false]\n' });
    const help = await runCli(['--trust-project', '--help'], { cwd: dir, env });
    expect(help.stdout).not.toMatch(/^ {2}(sessions|doctor|plugins)\b/m);
    expect(help.stdout).toMatch(/^ {2}config\b/m);
    // Nothing answers `sessions` any more: it is taken as a prompt, and there is no key to send it with.
    const r = await runCli(['--trust-project', 'sessions', 'list'], { cwd: dir, env });
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
  });

  it('are built only when a word could name one: a headless prompt with spaces builds none', async () => {
    // The plugin notes each time the commands hook runs; no model is reachable (no key): what matters happens before.
    const dir = makeProject({
      'p.mjs': `import { appendFileSync } from 'node:fs';
        export default { name: 'noter', apply(k) { k.hooks.commands.tap('noter', (r) => { appendFileSync('built.txt', 'x'); r.addCli({ name: 'noted', description: 'noted', action: () => 0 }); }); } };`,
      '.assistantrc': 'plugins: [./p.mjs]\n',
    });
    const built = () => (existsSync(join(dir, 'built.txt')) ? readFileSync(join(dir, 'built.txt'), 'utf8').length : 0);
    const noKey = { ...env, ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' };
    const prompt = await runCli(['--trust-project', '-p', 'two words'], { cwd: dir, env: noKey });
    expect(prompt.stderr).toContain('ASSISTANT_PROVIDER_NOT_CONFIGURED');
    expect(built()).toBe(0);
    // One bare word might be a mistyped subcommand: the commands are built to tell.
    const typo = await runCli(['--trust-project', '-p', 'notde'], { cwd: dir, env: noKey });
    expect(typo.stderr).toContain('unknown command "notde"; did you mean "noted"');
    expect(typo.code).toBe(2);
    expect(built()).toBe(1);
    const subcommand = await runCli(['--trust-project', 'noted'], { cwd: dir, env: noKey });
    expect(subcommand.code, subcommand.stderr).toBe(0);
    expect(built()).toBe(2);
  });

  it('enforce an option the plugin marks required, as a usage error (exit 2)', async () => {
    const dir = makeProject({
      'p.mjs': `export default { name: 'hello', apply(k) { k.hooks.commands.tap('hello', (r) => r.addCli({
        name: 'hello', description: 'says hello',
        options: [{ flags: '--to <name>', description: 'whom', required: true }],
        action: (_args, opts) => { process.stdout.write('hello ' + opts.to + '\\n'); return 0; },
      })); } };`,
      '.assistantrc': 'plugins: [./p.mjs]\n',
    });
    const missing = await runCli(['--trust-project', 'hello'], { cwd: dir, env });
    expect(missing.stderr.split('\n')[0]).toBe("ASSISTANT_USAGE: required option '--to <name>' not specified");
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    const given = await runCli(['--trust-project', 'hello', '--to', 'you'], { cwd: dir, env });
    expect(given.stdout).toBe('hello you\n');
    expect(given.code).toBe(0);
  });

  it('report why they are missing when the configuration does not load, not their options as unknown', async () => {
    const dir = makeProject({ '.assistantrc': 'limits:\n  maxTurns: many\n' });
    const r = await runCli(['replay', 'abc', '--json'], { cwd: dir, env });
    expect(r.stderr).toMatch(/^ASSISTANT_CONFIG_INVALID: /);
    expect(r.stderr).toContain('/limits/maxTurns');
    expect(r.stderr).not.toContain('unknown option');
    expect(r.code).toBe(2);
    const help = await runCli(['--help'], { cwd: dir, env });
    expect(help.code).toBe(0);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('Subcommands from plugins (sessions, doctor, plugins, ...) are missing: the configuration did not load');
  });

  it('doctor still fails a configuration a run would refuse (a misspelt strategy), though subcommands boot without that check', async () => {
    const dir = makeProject({ '.assistantrc': 'context:\n  strategy: rollin\n' });
    const r = await runCli(['--trust-project', 'doctor'], { cwd: dir, env: isolatedEnv({ ANTHROPIC_API_KEY: 'test' }) });
    expect(r.stdout).toMatch(/^FAIL {2}config: ASSISTANT_CONTEXT_STRATEGY_UNKNOWN: context\.strategy is "rollin"/m);
    expect(r.stdout).toMatch(/^ok\s+node: /m);
    expect(r.stdout).toMatch(/^ok\s+provider keys: set: ANTHROPIC_API_KEY/m);
    expect(r.code).toBe(1);
    const plugins = await runCli(['--trust-project', 'plugins'], { cwd: dir, env });
    expect(plugins.stderr).toMatch(/^ASSISTANT_CONTEXT_STRATEGY_UNKNOWN: /);
    expect(plugins.code).toBe(2);
  });
});
