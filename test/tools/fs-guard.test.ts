import { spawn, spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kernel } from '../../dist/core/index.js';
import { makeProject, tempDir } from '../support/project.js';
import { allowAll, call, kernelFor, mustHaveTools, runCalls, runOne, text } from './helpers.js';

// The file tools under the same guard as Read, run through the real pool with a policy that allows
// everything: what is refused here is refused by the tools themselves, on what they actually open.

const hasRipgrep = spawnSync('rg', ['--version'], { stdio: 'ignore' }).status === 0;
if (!hasRipgrep && !mustHaveTools) console.warn('ripgrep (rg) is not installed: the ripgrep half of the guard tests is skipped');
const BACKENDS = (['scanner', 'ripgrep'] as const).filter((b) => b === 'scanner' || hasRipgrep || mustHaveTools);

/** Every secret value planted in the project: none may appear in any search result. */
const SECRETS = ['DOTENV_TOKEN', 'PEM_TOKEN', 'RSA_TOKEN', 'TFSTATE_TOKEN', 'TFVARS_TOKEN', 'LINKED_TOKEN', 'OUTSIDE_TOKEN', 'ORIGIN_TOKEN', 'KEYBLOCK_TOKEN', 'LOOP_TOKEN'];

let root: string;
let outside: string;
const kernels = new Map<string, Kernel>();

beforeAll(async () => {
  outside = tempDir('assistant-outside-');
  writeFileSync(join(outside, 'hosts.txt'), 'OUTSIDE_TOKEN in a file outside\n');
  writeFileSync(join(outside, 'id_ed25519_copy'), 'LINKED_TOKEN a key outside the project\n');
  root = makeProject({
    'src/app.ts': 'const token = "PUBLIC_TOKEN";\n',
    '.env': 'API=DOTENV_TOKEN\n',
    'certs/server.pem': 'PEM_TOKEN\n',
    'id_rsa': 'RSA_TOKEN\n',
    'infra/terraform.tfstate': '{"secret": "TFSTATE_TOKEN"}\n',
    'infra/prod.tfvars': 'password = "TFVARS_TOKEN"\n',
    'infra/main.tf': 'resource "x" "y" { name = "PUBLIC_TOKEN" }\n',
    'notes/innocent.txt': '-----BEGIN OPENSSH PRIVATE KEY-----\nKEYBLOCK_TOKEN\n-----END OPENSSH PRIVATE KEY-----\n',
    '.git/config': '[remote "origin"]\n\turl = https://user:ORIGIN_TOKEN@example.com/repo.git\n',
    '.git/HEAD': 'ref: refs/heads/main PUBLIC_TOKEN\n',
  });
  // A hard link to a file outside, a symlink out, and a loop of symlinks.
  linkSync(join(outside, 'id_ed25519_copy'), join(root, 'src', 'linked.txt'));
  symlinkSync(join(outside, 'hosts.txt'), join(root, 'src', 'out-link.txt'));
  symlinkSync(join(root, 'loop-b'), join(root, 'loop-a'));
  symlinkSync(join(root, 'loop-a'), join(root, 'loop-b'));
  for (const backend of BACKENDS) kernels.set(backend, (await kernelFor(root, [allowAll], { config: { plugins: [['tools-fs', { grepBackend: backend }]] } })).kernel);
  kernels.set('default', (await kernelFor(root, [allowAll], { config: { plugins: [['tools-fs', { maxWriteBytes: 4096 }]] } })).kernel);
});
afterAll(async () => {
  for (const kernel of kernels.values()) await kernel.shutdown();
});

const kernel = () => kernels.get('default')!;

describe.each(BACKENDS)('Grep (%s) withholds secrets, hard links and files outside', (backend) => {
  it.each(['content', 'files_with_matches', 'count'] as const)('in %s mode, and says how many and why', async (mode) => {
    const result = await runOne(kernels.get(backend)!, 'Grep', { pattern: '_TOKEN', output_mode: mode, glob: '*' });
    const out = text(result);
    expect(result.isError).toBeUndefined();
    for (const secret of SECRETS) expect(out).not.toContain(secret);
    for (const name of ['.env', 'server.pem', 'id_rsa', 'terraform.tfstate', 'prod.tfvars', 'linked.txt', 'innocent.txt']) expect(out).not.toContain(name);
    expect(out).toMatch(mode === 'content' ? /PUBLIC_TOKEN/ : /main\.tf/);
    expect(out).toMatch(/files? withheld: .*secret/);
    expect(out).toMatch(/hard link/);
    expect(result.metadata?.withheld).toMatchObject({ secret: expect.any(Number), 'hard link': 1 });
  });

  it('never prints the token in .git/config when asked to search .git', async () => {
    const result = await runOne(kernels.get(backend)!, 'Grep', { pattern: 'TOKEN', path: '.git', output_mode: 'content' });
    expect(text(result)).not.toContain('ORIGIN_TOKEN');
    expect(text(result)).toContain('PUBLIC_TOKEN');
    expect(text(result)).toMatch(/1 file withheld: 1 secret/);
  });

  it('refuses a pipe named as its path instead of blocking on it', async () => {
    const fifo = join(root, `pipe-${backend}`);
    if (spawnSync('mkfifo', [fifo]).status !== 0) return console.warn('mkfifo is not available: the pipe case is skipped');
    const result = await runOne(kernels.get(backend)!, 'Grep', { pattern: 'x', path: `pipe-${backend}` });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/not a regular file or a folder/);
  });

  it('refuses a hard-linked file named as its path, and a glob that climbs out', async () => {
    const linked = await runOne(kernels.get(backend)!, 'Grep', { pattern: 'TOKEN', path: 'src/linked.txt', output_mode: 'content' });
    expect(text(linked)).not.toContain('LINKED_TOKEN');
    const climbing = await runOne(kernels.get(backend)!, 'Grep', { pattern: 'TOKEN', glob: '../**' });
    expect(climbing.isError).toBe(true);
    expect(climbing.metadata?.code).toBe('ASSISTANT_TOOL_INPUT_INVALID');
  });
});

describe('Glob', () => {
  it('lists no secret, hard link or link out of the project, and says how many it withheld', async () => {
    const result = await runOne(kernel(), 'Glob', { pattern: '**/*' });
    const out = text(result);
    expect(out).toContain('src/app.ts');
    expect(out).toContain('infra/main.tf');
    for (const name of ['.env', 'server.pem', 'id_rsa', 'terraform.tfstate', 'prod.tfvars', 'linked.txt', 'out-link.txt', 'loop-a']) expect(out).not.toContain(name);
    expect(out).toMatch(/withheld: .*secret.*outside the project|withheld: .*outside the project.*secret/);
    expect(result.metadata?.withheld).toMatchObject({ 'hard link': 1, outside: 1, 'symlink loop': 2 });
  });

  it('refuses a wildcard part with ..', async () => {
    const result = await runOne(kernel(), 'Glob', { pattern: '**/../../*' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/may not contain "\.\."/);
  });

  it('refuses a secret folder named by an absolute pattern', async () => {
    const home = tempDir('assistant-home-');
    mkdirSync(join(home, '.ssh'));
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'x');
    const result = await runOne(kernel(), 'Glob', { pattern: `${home}/.ssh/*` });
    expect(result.isError).toBe(true);
    expect(result.metadata?.code).toBe('ASSISTANT_TOOL_PATH_REFUSED');
    expect(text(result)).not.toContain('id_rsa');
  });
});

describe('names with control or bidi characters', () => {
  it('are escaped in the call summary the UI and the approval show', async () => {
    const dir = makeProject({});
    const { kernel: k, events } = await kernelFor(dir);
    try {
      await runOne(k, 'Read', { file_path: 'report\u202Efdp.exe' });
      const start = events.find((e) => e.type === 'tool_start') as { summary?: string } | undefined;
      expect(start?.summary).toBe('report\\u{202e}fdp.exe');
    } finally {
      await k.shutdown();
    }
  });

  it('are shown escaped by Glob, LS and Grep', async () => {
    const dir = makeProject({});
    writeFileSync(join(dir, 'invoice\u202Etxt.exe'), 'NEEDLE\n');
    const { kernel: k } = await kernelFor(dir, [allowAll], { config: { plugins: [['tools-fs', { grepBackend: 'scanner' }]] } });
    try {
      for (const [tool, input] of [['Glob', { pattern: '*' }], ['LS', {}], ['Grep', { pattern: 'NEEDLE' }]] as const) {
        const out = text(await runOne(k, tool, input));
        expect(out, tool).toContain('invoice\\u{202e}txt.exe');
        expect(out, tool).not.toContain('\u202E');
      }
    } finally {
      await k.shutdown();
    }
  });
});

describe('Read checks what it opened', () => {
  it('fails closed on a loop of symlinks, with a clear reason', async () => {
    const result = await runOne(kernel(), 'Read', { file_path: 'loop-a' });
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ code: 'ASSISTANT_TOOL_PATH_REFUSED', refused: 'symlink loop' });
    expect(text(result)).toMatch(/loop of symlinks/);
  });

  it('refuses a file reached through a link that leads out of the project', async () => {
    const result = await runOne(kernel(), 'Read', { file_path: 'src/out-link.txt' });
    expect(result.isError).toBe(true);
    expect(result.metadata?.code).toBe('ASSISTANT_TOOL_PATH_REFUSED');
    expect(text(result)).not.toContain('OUTSIDE_TOKEN');
  });
});

describe('size limits', () => {
  it('refuses a Write over maxWriteBytes with a coded error, before anything is written', async () => {
    const result = await runOne(kernel(), 'Write', { file_path: 'big.txt', content: 'x'.repeat(5000) });
    expect(result.isError).toBe(true);
    expect(result.metadata?.code).toBe('ASSISTANT_TOOL_INPUT_TOO_LARGE');
    expect(text(result)).toMatch(/maxWriteBytes/);
    expect(existsSync(join(root, 'big.txt'))).toBe(false);
    const ok = await runOne(kernel(), 'Write', { file_path: 'small.txt', content: 'x'.repeat(4000) });
    expect(ok.isError).toBeUndefined();
  });

  it('refuses an Edit or MultiEdit whose text is over the cap', async () => {
    writeFileSync(join(root, 'edit-me.txt'), 'hello\n');
    await runOne(kernel(), 'Read', { file_path: 'edit-me.txt' });
    const edit = await runOne(kernel(), 'Edit', { file_path: 'edit-me.txt', old_string: 'hello', new_string: 'y'.repeat(5000) });
    expect(edit.metadata?.code).toBe('ASSISTANT_TOOL_INPUT_TOO_LARGE');
    const multi = await runOne(kernel(), 'MultiEdit', { file_path: 'edit-me.txt', edits: [{ old_string: 'hello', new_string: 'z'.repeat(3000) }, { old_string: 'z', new_string: 'w'.repeat(3000) }] });
    expect(multi.metadata?.code).toBe('ASSISTANT_TOOL_INPUT_TOO_LARGE');
  });

  it('refuses a replace_all that would grow the file past the cap, without building it', async () => {
    writeFileSync(join(root, 'grow.txt'), 'a '.repeat(1000));
    await runOne(kernel(), 'Read', { file_path: 'grow.txt' });
    const result = await runOne(kernel(), 'Edit', { file_path: 'grow.txt', old_string: 'a', new_string: 'bbbbbbbbbb', replace_all: true });
    expect(result.metadata?.code).toBe('ASSISTANT_TOOL_INPUT_TOO_LARGE');
    expect(readFileSync(join(root, 'grow.txt'), 'utf8')).toBe('a '.repeat(1000));
  });

  it('answers an over-long pattern with an input error, not a crash', async () => {
    for (const [tool, input] of [
      ['Grep', { pattern: 'a'.repeat(10_000) }],
      ['Glob', { pattern: '*'.repeat(10_000) }],
      ['LS', { ignore: Array.from({ length: 5000 }, (_, i) => `x${i}`) }],
    ] as const) {
      const result = await runOne(kernel(), tool, input);
      expect(result.isError, tool).toBe(true);
      expect(result.metadata?.code, tool).toBe('ASSISTANT_TOOL_INPUT_INVALID');
    }
  });
});

describe('race-free writes', () => {
  it('never lands a Write outside the project while a folder is swapped for a symlink in a loop', async () => {
    const project = makeProject({ 'sub/keep.txt': 'keep\n' });
    const away = tempDir('assistant-away-');
    const swapper = spawn(process.execPath, [fileURLToPath(new URL('./fixtures/swap-dir.mjs', import.meta.url)), project, away], { stdio: ['ignore', 'pipe', 'inherit'] });
    const started = new Promise<void>((resolve) => swapper.stdout.once('data', () => resolve()));
    const { kernel: k } = await kernelFor(project);
    try {
      await started;
      const N = 50;
      const results = [];
      // Batches of ten concurrent Writes (different files: their locks do not conflict).
      for (let batch = 0; batch < N / 10; batch++)
        results.push(...(await runCalls(k, Array.from({ length: 10 }, (_, i) => call('Write', { file_path: `sub/file-${batch * 10 + i}.txt`, content: `write ${batch * 10 + i}\n` })))));
      swapper.kill('SIGKILL');
      const landedOutside = readdirSync(away).filter((name) => name.startsWith('file-'));
      console.log(`swap race: ${results.filter((r) => !r.isError).length} of ${N} written, ${landedOutside.length} outside`);
      expect(landedOutside).toEqual([]);
      // A write that succeeded is in the project (in sub/, or in sub.real/ where the swapper parked it).
      results.forEach((r, i) => {
        if (r.isError) expect(r.metadata?.code, JSON.stringify(r).slice(0, 600)).toMatch(/ASSISTANT_TOOL_(PATH_REFUSED|FAILED)/);
        else expect(existsSync(join(project, 'sub', `file-${i}.txt`)) || existsSync(join(project, 'sub.real', `file-${i}.txt`))).toBe(true);
      });
    } finally {
      swapper.kill('SIGKILL');
      await k.shutdown();
    }
  }, 120_000);

  it('never returns what is behind the swapped-in symlink to Read or Grep', async () => {
    const project = makeProject({ 'sub/data.txt': 'INSIDE\n' });
    const away = tempDir('assistant-away-');
    writeFileSync(join(away, 'data.txt'), 'AWAY_TOKEN\n');
    const swapper = spawn(process.execPath, [fileURLToPath(new URL('./fixtures/swap-dir.mjs', import.meta.url)), project, away], { stdio: ['ignore', 'pipe', 'inherit'] });
    const started = new Promise<void>((resolve) => swapper.stdout.once('data', () => resolve()));
    const { kernel: k } = await kernelFor(project, [allowAll], { config: { plugins: [['tools-fs', { grepBackend: 'scanner' }]] } });
    try {
      await started;
      const results = [];
      for (let batch = 0; batch < 5; batch++)
        results.push(
          ...(await runCalls(k, [
            ...Array.from({ length: 5 }, () => call('Read', { file_path: 'sub/data.txt' })),
            ...Array.from({ length: 5 }, (_, i) => call('Grep', { pattern: 'TOKEN|INSIDE', output_mode: 'content', path: i % 2 ? 'sub' : '.' })),
          ])),
        );
      swapper.kill('SIGKILL');
      for (const r of results) expect(text(r)).not.toContain('AWAY_TOKEN');
    } finally {
      swapper.kill('SIGKILL');
      await k.shutdown();
    }
  }, 120_000);
});
