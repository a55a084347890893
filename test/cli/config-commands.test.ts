import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli } from '../support/cli.js';
import { isolatedEnv, makeProject } from '../support/project.js';

const env = isolatedEnv();
const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at .*:\d+:\d+/);

describe('assistant config validate', () => {
  it('accepts a valid config', async () => {
    const dir = makeProject({ '.assistantrc': 'limits:\n  maxTurns: 5\n' });
    const r = await runCli(['--trust-project', 'config', 'validate'], { cwd: dir, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('configuration is valid');
    expect(r.stdout).toContain(join(dir, '.assistantrc'));
  });

  it('rejects bad YAML with the file and the parser reason, exit 2, no stack', async () => {
    const dir = makeProject({ '.assistantrc.yaml': 'provider:\n  name: [anthropic\n' });
    const r = await runCli(['--trust-project', 'config', 'validate'], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `ASSISTANT_CONFIG_PARSE: ${join(dir, '.assistantrc.yaml')}: cannot be parsed: unexpected end of the stream within a flow collection (line 3, column 1)\n`,
    );
    noStack(r.stderr);
  });

  it('rejects bad JSON with the parser reason, also in a colour terminal (no code frame, no escapes)', async () => {
    const dir = makeProject({ '.assistantrc.json': '{ "limits": { "maxTurns": 3, } ' });
    const { NO_COLOR: _plain, ...colourful } = env;
    for (const terminal of [env, { ...colourful, FORCE_COLOR: '1' }]) {
      const r = await runCli(['--trust-project', 'config', 'validate'], { cwd: dir, env: terminal });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^ASSISTANT_CONFIG_PARSE: \S+\.assistantrc\.json: cannot be parsed: [^\n\u001b]*JSON at position \d+[^\n\u001b]*\n$/);
    }
  });

  it('rejects a JavaScript config with a syntax error with the real reason, not a require() fallback', async () => {
    const dir = makeProject({ '.assistantrc.mjs': 'export default { limits: { maxTurns: 3 ' });
    const r = await runCli(['--trust-project', 'config', 'validate'], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`ASSISTANT_CONFIG_PARSE: ${join(dir, '.assistantrc.mjs')}: cannot be parsed: Unexpected end of input\n`);
  });

  it('rejects a wrong type with file, JSON path and expectation', async () => {
    const dir = makeProject({ '.assistantrc.json': JSON.stringify({ limits: { maxTurns: 'many' } }) });
    const r = await runCli(['--trust-project', 'config', 'validate'], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('ASSISTANT_CONFIG_INVALID');
    expect(r.stderr).toContain(join(dir, '.assistantrc.json'));
    expect(r.stderr).toContain('/limits/maxTurns: must be integer (got "many")');
    noStack(r.stderr);
  });

  it('rejects an unknown plugin naming it and the file that listed it', async () => {
    const dir = makeProject({ '.assistantrc': 'plugins:\n  - assistant-plugin-nope\n' });
    const r = await runCli(['--trust-project', 'config', 'validate'], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('ASSISTANT_PLUGIN_NOT_FOUND');
    expect(r.stderr).toContain('"assistant-plugin-nope"');
    expect(r.stderr).toContain(join(dir, '.assistantrc'));
    noStack(r.stderr);
  });

  it('checks what a run selects by name and the provider options, naming the file; a missing key is not a config error', async () => {
    const cases: Array<[string, string, string]> = [
      ['provider:\n  name: anthropc\n', 'ASSISTANT_PROVIDER_UNKNOWN', '"anthropc"'],
      ['provider:\n  retries:\n    attempts: three\n', 'ASSISTANT_PROVIDER_OPTIONS_INVALID', '/provider/retries/attempts: must be integer (got "three")'],
      ['provider:\n  retrys: 1\n', 'ASSISTANT_PROVIDER_OPTIONS_INVALID', '/provider/retrys: is not a known key'],
      ['persistence:\n  store: jsnl\n', 'ASSISTANT_STORE_UNKNOWN', '(did you mean "jsonl"?)'],
      ['context:\n  strategy: rollin\n', 'ASSISTANT_CONTEXT_STRATEGY_UNKNOWN', '"rollin"'],
    ];
    for (const [yaml, code, reason] of cases) {
      const dir = makeProject({ '.assistantrc': yaml });
      const r = await runCli(['--trust-project', 'config', 'validate'], { cwd: dir, env });
      expect(r.code, yaml).toBe(2);
      expect(r.stderr, yaml).toMatch(new RegExp(`^${code}: `));
      expect(r.stderr, yaml).toContain(reason);
      expect(r.stderr, yaml).toContain(join(dir, '.assistantrc'));
    }
    // No key in this environment: still valid (the key is the environment's business: `assistant doctor`).
    const fine = await runCli(['--trust-project', 'config', 'validate'], { cwd: makeProject({ '.assistantrc': 'provider:\n  name: openai\n  retries:\n    attempts: 1\n' }), env });
    expect(fine.stderr).toBe('');
    expect(fine.code).toBe(0);
  });

  it('prints the stack only with --debug', async () => {
    const dir = makeProject({ 'p.mjs': 'export default { name: "boom", apply() { throw new Error("bad apply"); } };', '.assistantrc': 'plugins: [./p.mjs]\n' });
    const plain = await runCli(['--trust-project', 'config', 'validate'], { cwd: dir, env });
    expect(plain.code).toBe(1);
    expect(plain.stderr.trim().split('\n')).toHaveLength(1);
    expect(plain.stderr).toContain('ASSISTANT_PLUGIN_APPLY_FAILED: plugin "boom"');
    const debug = await runCli(['--trust-project', 'config', 'validate', '--debug'], { cwd: dir, env });
    expect(debug.stderr).toMatch(/Caused by: Error: bad apply\n\s+at /);
  });
});

describe('assistant config show / init', () => {
  it('shows each value with the file it came from', async () => {
    const dir = makeProject({ '.assistantrc': 'provider:\n  model: m1\n' });
    const r = await runCli(['--trust-project', 'config', 'show', '--model', 'm2'], { cwd: dir, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('provider.model = "m2"    # flags');
    expect(r.stdout).toContain('provider.name = "anthropic"    # defaults');
    const json = JSON.parse((await runCli(['--trust-project', 'config', 'show', '--json'], { cwd: dir, env })).stdout);
    expect(json.values.provider.model).toBe('m1');
    expect(json.sources['/provider/model']).toBe(join(dir, '.assistantrc'));
  });

  it('writes a valid commented starter and refuses to overwrite without --force', async () => {
    const dir = makeProject({ '.git/HEAD': '' });
    const r = await runCli(['--trust-project', 'config', 'init'], { cwd: dir, env });
    expect(r.code).toBe(0);
    const text = readFileSync(join(dir, '.assistantrc'), 'utf8');
    expect(text).toMatch(/^# assistant configuration/);
    expect((await runCli(['--trust-project', 'config', 'validate'], { cwd: dir, env })).code).toBe(0);
    const again = await runCli(['--trust-project', 'config', 'init'], { cwd: dir, env });
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('already exists; pass --force');
    expect((await runCli(['--trust-project', 'config', 'init', '--force'], { cwd: dir, env })).code).toBe(0);
  });
});

describe('assistant plugins / doctor / --version', () => {
  it('lists a plugin with its source, version and hooks', async () => {
    const dir = makeProject({
      'p.mjs': 'export default { name: "hello", version: "2.0.0", apply(k) { k.hooks.turnStart.tap("hello", () => {}); k.hooks.commands.tap("hello", () => {}); } };',
      '.assistantrc': 'plugins: [./p.mjs]\n',
    });
    const r = await runCli(['--trust-project', 'plugins', '--json'], { cwd: dir, env });
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as Array<{ name: string; version: string; tools: string[] }>;
    const hello = rows.find((p) => p.name === 'hello');
    expect(hello).toMatchObject({ version: '2.0.0', source: join(dir, 'p.mjs'), hooks: ['turnStart', 'commands'], tools: [] });
    // Every built-in says its version, and the tool plugins name their tools.
    expect(rows.filter((p) => !p.version).map((p) => p.name)).toEqual([]);
    expect(rows.find((p) => p.name === 'tools-fs')!.tools).toEqual(['Edit', 'Glob', 'Grep', 'LS', 'MultiEdit', 'Read', 'Write']);
    const text = await runCli(['--trust-project', 'plugins'], { cwd: dir, env });
    expect(text.stdout).toContain('tool-bash@1.0.0\n  source: built-in (tool-bash/index.js)\n  hooks: event, permission, commands, afterToolCall\n  tools: Bash\n');
  });

  it('stops quietly when the reader of its output goes away (| head)', async () => {
    const child = spawn(process.execPath, [CLI, 'plugins'], { cwd: makeProject(), env, stdio: ['ignore', 'pipe', 'pipe'] });
    // Closed before the CLI has written anything, so its writes fail with EPIPE.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const [code] = (await once(child, 'close')) as [number | null];
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('doctor works with no key at all and reports what is missing (the provider cannot run: exit 1)', async () => {
    const dir = makeProject();
    const r = await runCli(['--trust-project', 'doctor'], { cwd: dir, env });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/ok\s+node: v\d+/);
    expect(r.stdout).toContain('provider keys: none of ANTHROPIC_API_KEY');
  });

  it('prints the version', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const r = await runCli(['--version'], { cwd: makeProject(), env });
    expect(r.stdout).toBe(`${pkg.version}\n`);
  });

  it('reports an unknown option as a usage error (exit 2)', async () => {
    const r = await runCli(['--trust-project', '--frobnicate'], { cwd: makeProject(), env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option '--frobnicate'");
  });
});
