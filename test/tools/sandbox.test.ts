import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Kernel, ToolResultPart } from '../../dist/core/index.js';
import { probeSandbox, sandboxArgs } from '../../dist/plugins/tool-bash/sandbox.js';
import { spawnCommand } from '../../dist/plugins/tool-bash/spawn.js';
import { runCli } from '../support/cli.js';
import { isolatedEnv, makeProject, tempDir } from '../support/project.js';
import { kernelFor, mustHaveTools, reachableServer, runOne, text } from './helpers.js';
import { pollUntil } from '../support/wait.js';

const probe = probeSandbox();
if (!probe.available && !mustHaveTools) console.warn(`the Bash sandbox tests are skipped: ${probe.reason}`);
const sandboxed = describe.skipIf(!probe.available && !mustHaveTools);

// Outside the project and outside the temp directory (which stays writable): written only when unconfined.
const outsideRoot = existsSync('/var/tmp') ? '/var/tmp' : tempDir();
const kernels: Kernel[] = [];
const server = reachableServer(kernels);

async function bashIn(root: string, sandbox: unknown) {
  const { kernel } = await kernelFor(root, undefined, { config: { sandbox: sandbox as 'auto' } });
  kernels.push(kernel);
  return (command: string, context = {}) => runOne(kernel, 'Bash', { command }, context);
}
const fetchCommand = () => `node -e "fetch('${server.url}').then(r => r.text()).then(t => console.log('got ' + t), e => console.log('net error: ' + (e.cause?.code ?? e.message)))"`;
const meta = (result: ToolResultPart) => result.metadata as Record<string, unknown> | undefined;

sandboxed('the Bash sandbox (bubblewrap)', () => {
  it('lets commands write the project but nothing outside it, and cuts the network', async () => {
    const root = makeProject({ 'src/a.txt': 'a\n' });
    const outside = mkdtempSync(join(outsideRoot, 'assistant-sandbox-'));
    const bash = await bashIn(root, 'auto');

    const inside = await bash('mkdir -p build && echo built > build/out.txt && cd src && cat a.txt');
    expect(text(inside)).toBe('a');
    expect(meta(inside)?.sandboxed).toBe(true);
    expect(readFileSync(join(root, 'build/out.txt'), 'utf8')).toBe('built\n');
    // The working directory is still kept between commands.
    expect(text(await bash('pwd -P'))).toBe(join(realpathSync(root), 'src'));

    const escape = await bash(`echo leaked > ${outside}/x.txt`);
    expect(text(escape)).toMatch(/Read-only file system/);
    expect(existsSync(join(outside, 'x.txt'))).toBe(false);

    expect(text(await bash(fetchCommand()))).toMatch(/^net error: /);

    // The same commands unconfined: the write lands and the server answers, so the test can tell.
    const open = await bashIn(root, 'off');
    expect(meta(await open(`echo ok > ${outside}/y.txt`))?.sandboxed).toBe(false);
    expect(readFileSync(join(outside, 'y.txt'), 'utf8')).toBe('ok\n');
    expect(text(await open(fetchCommand()))).toBe('got reached');
  });

  it('reaches the network only when allowed, and writes extra paths the config names', async () => {
    const root = makeProject({});
    const extra = mkdtempSync(join(outsideRoot, 'assistant-sandbox-extra-'));
    const bash = await bashIn(root, { mode: 'auto', network: true, writable: [extra] });
    expect(text(await bash(fetchCommand()))).toBe('got reached');
    await bash(`echo cached > ${extra}/c.txt`);
    expect(readFileSync(join(extra, 'c.txt'), 'utf8')).toBe('cached\n');
  });

  it('hides secrets: .env files of the project and credential folders of the home directory', () => {
    const home = tempDir('assistant-home-');
    mkdirSync(join(home, '.ssh'));
    writeFileSync(join(home, '.ssh/id_ed25519'), 'PRIVATE KEY');
    writeFileSync(join(home, '.netrc'), 'machine example.com password hunter2');
    const root = makeProject({ '.env': 'API_KEY=sk-live', '.env.example': 'API_KEY=', 'notes.txt': 'visible' });
    symlinkSync(join(root, '.env'), join(root, 'env-link'));
    const args = sandboxArgs({ mode: 'auto', network: false, writable: [] }, realpathSync(root), { home });
    const run = (command: string) => spawnSync(args[0]!, [...args.slice(1), '--chdir', root, 'sh', '-c', command], { encoding: 'utf8' });
    expect(run('cat notes.txt .env.example').stdout).toBe('visibleAPI_KEY=');
    expect(run('cat .env; cat env-link').stdout).toBe('');
    expect(run(`ls -A ${home}/.ssh`).stdout).toBe('');
    expect(run(`cat ${home}/.netrc`).stdout).toBe('');
    expect(run(`echo x > .env`).stderr).toMatch(/Read-only file system|Permission denied/);
    expect(readFileSync(join(root, '.env'), 'utf8')).toBe('API_KEY=sk-live');
  });

  it('runs the bwrap it found at start, not one written later into a folder on PATH', async () => {
    // A folder of the project on PATH (an activated .venv/bin) and a bwrap the agent writes there
    // after start: run by name, it would run commands unconfined.
    const root = makeProject({ 'src/a.txt': 'a\n' });
    const bin = join(root, '.venv', 'bin');
    mkdirSync(bin, { recursive: true });
    const marker = join(mkdtempSync(join(outsideRoot, 'assistant-fake-bwrap-')), 'ran');
    const saved = process.env.PATH;
    process.env.PATH = `${bin}:${saved}`;
    try {
      const bash = await bashIn(root, 'auto');
      writeFileSync(join(bin, 'bwrap'), `#!/bin/sh\necho fake > ${marker}\nexit 1\n`, { mode: 0o755 });
      const result = await bash('cat src/a.txt');
      expect(text(result)).toBe('a');
      expect(meta(result)?.sandboxed).toBe(true);
      expect(existsSync(marker)).toBe(false);
    } finally {
      process.env.PATH = saved;
    }
  });

  it('stops everything a cancelled command started, inside its PID namespace', async () => {
    const root = makeProject({});
    const bash = await bashIn(root, 'auto');
    const controller = new AbortController();
    const pending = bash(`(trap "" TERM; while true; do date +%s%N > tick; sleep 0.05; done) & wait`, { signal: controller.signal });
    await pollUntil(() => existsSync(join(root, 'tick')));
    controller.abort();
    expect(meta(await pending)?.code).toBe('ASSISTANT_TOOL_ABORTED');
    const last = readFileSync(join(root, 'tick'), 'utf8');
    await new Promise((r) => setTimeout(r, 400));
    expect(readFileSync(join(root, 'tick'), 'utf8')).toBe(last);
  });
});

describe('sandbox: required without bubblewrap', () => {
  it('stops the run before any model request, and doctor says why', async () => {
    // A PATH with node but no bwrap.
    const bin = tempDir('assistant-bin-');
    symlinkSync(process.execPath, join(bin, 'node'));
    const env = { ...isolatedEnv(), PATH: bin, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', ANTHROPIC_API_KEY: 'test' };
    const root = makeProject({ '.assistantrc': JSON.stringify({ sandbox: 'required' }) });
    const run = await runCli(['--trust-project', '-p', 'list the files'], { cwd: root, env });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/ASSISTANT_SANDBOX_UNAVAILABLE: sandbox is "required" but bubblewrap \(bwrap\) is not installed/);
    const doctor = await runCli(['--trust-project', 'doctor'], { cwd: root, env });
    expect(doctor.stdout).toMatch(/FAIL {2}sandbox: bubblewrap \(bwrap\) is not installed.*sandbox: required, so Bash commands will not run/);
    expect(doctor.code).toBe(1);
  });
});

sandboxed('a bwrap inside the project', () => {
  it('sandboxes nothing: sandbox: required stops the run, and doctor says why', async () => {
    // A working bwrap, first on PATH from a folder of the project (an activated .venv/bin).
    const root = makeProject({ '.assistantrc': JSON.stringify({ sandbox: 'required' }) });
    const bin = join(root, '.venv', 'bin');
    mkdirSync(bin, { recursive: true });
    copyFileSync(probe.program!, join(bin, 'bwrap'));
    chmodSync(join(bin, 'bwrap'), 0o755);
    const env = { ...isolatedEnv(), PATH: `${bin}:${process.env.PATH}`, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', ANTHROPIC_API_KEY: 'test' };
    const run = await runCli(['--trust-project', '-p', 'list the files'], { cwd: root, env });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/ASSISTANT_SANDBOX_UNAVAILABLE: sandbox is "required" but bwrap was found at \S+\/\.venv\/bin\/bwrap, inside the project/);
    const doctor = await runCli(['--trust-project', 'doctor'], { cwd: root, env });
    expect(doctor.stdout).toMatch(/FAIL {2}sandbox: bwrap was found at \S+\/\.venv\/bin\/bwrap, inside the project/);
  });
});

describe('the sandbox probe in the background', () => {
  /** In a fresh process (the probe's verdict is kept per process): the probe started by the plugin, and Bash's description before and after start. */
  function probeIn(env: NodeJS.ProcessEnv) {
    const script = `
      const { loadConfig } = await import(${JSON.stringify(new URL('../../dist/config/load.js', import.meta.url).href)});
      const { createKernel } = await import(${JSON.stringify(new URL('../../dist/core/kernel/kernel.js', import.meta.url).href)});
      const { probeSandboxSoon, probeSandbox } = await import(${JSON.stringify(new URL('../../dist/plugins/tool-bash/sandbox.js', import.meta.url).href)});
      const { decidePermission, permissionRequestFor } = await import(${JSON.stringify(new URL('../../dist/core/index.js', import.meta.url).href)});
      const { existsSync } = await import('node:fs');
      const kernel = await createKernel({ config: await loadConfig({ cwd: process.cwd(), env: process.env }), headless: true });
      const describe = () => { const bash = kernel.tools.get('Bash'); return { network: 'network' in bash.inputSchema.properties, line: bash.description.split('\\n').pop() }; };
      const before = describe();
      await kernel.start();
      const started = describe();
      const triedAtStart = existsSync(process.env.TRIED ?? '/nonexistent');
      // A command's permission check: the trial runs (once) before it is judged.
      const call = { type: 'tool_call', id: 'c1', name: 'Bash', input: { command: 'true' } };
      const decision = await decidePermission(kernel.hooks, permissionRequestFor(kernel.tools.get('Bash'), call, { projectRoot: kernel.projectRoot, cwd: kernel.cwd, mode: 'default', headless: true }));
      const after = describe();
      const soon = await probeSandboxSoon();
      await kernel.shutdown();
      // Nothing of the probe's is left holding the process open (a spawn's own timeout timer did, when bwrap was missing).
      const holding = process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout' || kind === 'ProcessWrap');
      console.log(JSON.stringify({ before, started, triedAtStart, decision: decision.behavior, after, soon, now: probeSandbox(), holding }));`;
    const root = makeProject({ '.assistantrc': JSON.stringify({ sandbox: 'auto' }) });
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, env: { ...isolatedEnv(), ANTHROPIC_API_KEY: 'k', ...env }, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    type Description = { network: boolean; line: string };
    const out = JSON.parse(run.stdout) as { before: Description; started: Description; triedAtStart: boolean; decision: string; after: Description; soon: unknown; now: unknown; holding: string[] };
    expect(out.holding).toEqual([]);
    // A run that never gets to a command never runs the trial: Bash stays described from the guess.
    expect(out.started).toEqual(out.before);
    expect(out.triedAtStart).toBe(false);
    expect(out.decision).toBe('allow');
    return out;
  }

  it.skipIf(!probe.available && !mustHaveTools)('gives the verdict of the blocking probe, and describes Bash from it', () => {
    const out = probeIn({ PATH: process.env.PATH });
    expect(out.soon).toEqual(probe);
    expect(out.now).toEqual(probe);
    expect(out.after).toEqual({ network: true, line: expect.stringMatching(/WITHOUT network access/) });
    expect(out.before).toEqual(out.after);
  });

  it('describes Bash again when bwrap is installed but cannot run, once a command is about to be judged', () => {
    // A bwrap on PATH that fails the way a container without user namespaces makes it fail, and leaves a mark that it ran.
    const bin = tempDir('assistant-bin-');
    const tried = join(bin, 'tried');
    writeFileSync(join(bin, 'bwrap'), `#!/bin/sh\ntouch '${tried}'\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n`, { mode: 0o755 });
    const out = probeIn({ PATH: `${bin}:${process.env.PATH}`, TRIED: tried });
    expect(existsSync(tried)).toBe(true);
    expect(out.soon).toEqual({ available: false, reason: expect.stringMatching(/bwrap cannot create namespaces here \(bwrap: No permissions to create new namespace\)/) });
    expect(out.now).toEqual(out.soon);
    // Guessed from the bwrap on PATH, then corrected by the trial the command's check waited for.
    expect(out.before.network).toBe(true);
    expect(out.after).toEqual({ network: false, line: '- Commands run without an OS sandbox, with network access.' });
  });

  it('finds no bwrap the same way in the background', () => {
    const bin = tempDir('assistant-bin-');
    symlinkSync(process.execPath, join(bin, 'node'));
    const out = probeIn({ PATH: bin });
    expect(out.soon).toEqual({ available: false, reason: expect.stringMatching(/bubblewrap \(bwrap\) is not installed/) });
    expect(out.before).toEqual(out.after);
    expect(out.after.network).toBe(false);
  });
});

// macOS is not available here: the Seatbelt profile is checked as text, and the wrapper plumbing on Linux.
describe('sandbox on macOS: the Seatbelt profile (untested on a Mac)', () => {
  function seatbelt(network: boolean, writable: string[] = []) {
    const home = tempDir('assistant-home-');
    mkdirSync(join(home, '.ssh'));
    const root = makeProject({ '.env': 'API_KEY=sk-live', '.env.example': 'API_KEY=', 'src/a.ts': '' });
    const args = sandboxArgs({ mode: 'auto', network, writable }, root, { home, platform: 'darwin' });
    const params = new Map<string, string>();
    for (let i = 3; i < args.length; i += 2) {
      expect(args[i]).toBe('-D');
      const [key, ...value] = args[i + 1]!.split('=');
      params.set(key!, value.join('='));
    }
    return { args, profile: args[2]!, params, root, home };
  }

  it('lets writes reach only the project, the temp directory and configured paths, and hides secrets', () => {
    const extra = tempDir('assistant-extra-');
    const { args, profile, params, root, home } = seatbelt(false, [extra]);
    expect(args.slice(0, 2)).toEqual(['/usr/bin/sandbox-exec', '-p']);
    const lines = profile.split('\n');
    expect(lines.slice(0, 3)).toEqual(['(version 1)', '(allow default)', '(deny file-write*)']);
    expect(lines[3]).toMatch(/^\(allow file-write\* \(subpath \(param "W0"\)\) \(subpath \(param "W1"\)\) \(subpath \(param "W2"\)\) .*\(literal "\/dev\/null"\)/);
    expect([params.get('W0'), params.get('W2')]).toEqual([root, realpathSync(extra)]);
    expect(params.get('W1')).toBe(realpathSync(tmpdir()));
    expect(lines).toContain('(deny network*)');
    // Secrets last, since later rules win: the .env file by name, the ~/.ssh folder whole; never .env.example.
    const deny = lines.at(-1)!;
    expect(deny).toMatch(/^\(deny file-read\* file-write\* /);
    const hidden = [...params].filter(([k]) => k.startsWith('H'));
    expect(hidden.map(([, v]) => v).sort()).toEqual([join(home, '.ssh'), join(root, '.env')].sort());
    for (const [key, value] of hidden) expect(deny).toContain(`(${value.endsWith('.ssh') ? 'subpath' : 'literal'} (param "${key}"))`);
    // Paths travel as parameters: none is spliced into the profile text.
    expect(profile).not.toContain(root);
  });

  it('leaves the network on when allowed', () => {
    expect(seatbelt(true).profile).not.toContain('network');
  });

  it('runs a wrapper other than bwrap in the working directory it was given', async () => {
    const root = makeProject({});
    const child = spawnCommand('/bin/sh', 'pwd -P', root, process.env, ['env']);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise((resolve) => child.on('close', resolve));
    expect(out.trim()).toBe(root);
  });
});
