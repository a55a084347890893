// The package as users get it: `npm pack` of assistant and of the example plugins, installed
// offline into a temp project, type-checked as a consumer would, and loaded by name from
// .assistantrc by the installed CLI, talking to the fake LLM server.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '../../dist/core/testing/index.js';
import { PACKAGE_NAME } from '../../dist/core/kernel/version.js';
import { runCli } from '../support/cli.js';
import { isolatedEnv, writeFiles } from '../support/project.js';
import { copyExample, lockOurTarball, npm, pack, packedProject, ROOT, tsc } from '../support/packed.js';

const EXAMPLES = ['http', 'recent-tool-results', 'migration-guard', 'word-count'];
const INIT_SQL = 'CREATE TABLE users (id int);\n';

/** The temp project everything is installed into. */
let project: string;
let removeProject: (() => void) | undefined;
let cli: string;
/** The installed package's folder. */
let installed: string;
/** The files `npm pack` put in our tarball. */
let packedFiles: string[];
/** What tsc said about a consumer's TypeScript that imports the installed package. */
let consumer: { code: number; output: string };
let fake: FakeLlm;
let api: Server;
let apiOrigin: string;
const apiHits: string[] = [];

/** A plugin package built for a kernel API this assistant does not provide. */
const FUTURE_PLUGIN = {
  'package.json': JSON.stringify({ name: 'assistant-plugin-future', version: '3.0.0', type: 'module', main: 'index.js', peerDependencies: { '@assistant-cli/assistant': '*' } }),
  'index.js': "export default { name: 'future', version: '3.0.0', kernelApi: '^3.0.0', apply() {} };\n",
};

const CONSUMER_OK = `import { definePlugin, Stage, type PermissionDecision } from '@assistant-cli/assistant';
import { createTestKernel, startFakeLlm, type TestKernel } from '@assistant-cli/assistant/testing';

export default definePlugin<{ level?: number }>({
  name: 'consumer',
  kernelApi: '^2.0.0',
  apply(kernel, options) {
    const level: number | undefined = options.level;
    kernel.hooks.permission.tapPromise({ name: 'consumer', stage: Stage.POLICY }, async (request): Promise<PermissionDecision | undefined> =>
      request.category === 'network' ? { behavior: 'deny', reason: \`level \${level}\`, layer: 'consumer' } : undefined,
    );
  },
});

export async function smoke(): Promise<TestKernel> {
  const fake = await startFakeLlm({ fixture: { turns: [{ reply: { text: 'hi' } }] } });
  return createTestKernel({ builtins: ['provider-anthropic'], model: fake });
}
`;

const CONSUMER_TYPO = `import { definePlugin } from '@assistant-cli/assistant';

export default definePlugin({
  name: 'typo',
  apply(kernel) {
    kernel.hooks.permision.tapPromise('typo', async () => undefined);
  },
});
`;

beforeAll(async () => {
  ({ dir: project, remove: removeProject } = packedProject());
  const tarball = await pack(ROOT, project);
  packedFiles = (await npm(['pack', '--dry-run', '--json', '--ignore-scripts'], ROOT).then((out) => JSON.parse(out) as Array<{ files: Array<{ path: string }> }>))[0]!.files.map((f) => f.path);
  lockOurTarball(project, tarball);
  await npm(['ci', '--offline', '--ignore-scripts'], project);
  installed = join(project, 'node_modules', PACKAGE_NAME);
  cli = join(installed, 'dist/bin/assistant.cjs');

  // The examples are built as their authors would, against the installed package's types, then packed.
  const builds = EXAMPLES.map((name) => join(project, 'build', name));
  EXAMPLES.forEach((name, i) => copyExample(name, builds[i]!));
  writeFiles(join(project, 'build/future'), FUTURE_PLUGIN);
  writeFiles(join(project, 'consumer'), { 'ok.ts': CONSUMER_OK, 'typo.ts': CONSUMER_TYPO });
  const typecheck = tsc(
    ['--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--types', 'node', '--skipLibCheck', 'ok.ts', 'typo.ts'],
    join(project, 'consumer'),
  );
  const built = await tsc(['-b', ...builds], project);
  if (built.code !== 0) throw new Error(`building the examples against the packed assistant failed:\n${built.output}`);
  const tarballs = await Promise.all([...builds, join(project, 'build/future')].map((dir) => pack(dir, project)));
  consumer = await typecheck;
  await npm(['install', '--offline', '--ignore-scripts', ...tarballs.map((t) => `./${t}`)], project);

  fake = await startFakeLlm({ fixture: { turns: [] } });
  api = createServer((req, res) => {
    apiHits.push(req.url ?? '');
    if (req.url === '/status') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"build":"1234"}');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiOrigin = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
}, 600_000);

afterAll(async () => {
  await fake?.close();
  await new Promise((resolve) => (api ? api.close(resolve) : resolve(undefined)));
  removeProject?.();
});

describe('the packed package', () => {
  it('is published under the name the docs give authors, which the running code knows too', () => {
    const name = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).name;
    expect(name).toBe(PACKAGE_NAME);
    expect(JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).name).toBe(PACKAGE_NAME);
    // docs/plugins.md's publishing sample: the peer (and dev) dependency authors copy.
    const plugins = readFileSync(join(ROOT, 'docs/plugins.md'), 'utf8');
    const sample = /## Publishing[\s\S]*?```jsonc\n([\s\S]*?)```/.exec(plugins)![1]!;
    expect(Object.keys(JSON.parse(sample).peerDependencies)).toEqual([PACKAGE_NAME]);
    expect(Object.keys(JSON.parse(sample).devDependencies)).toContain(PACKAGE_NAME);
    expect(plugins).toContain(`Put **\`${PACKAGE_NAME}\`** in \`peerDependencies\``);
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(`npm install -g ${PACKAGE_NAME}`);
    for (const example of EXAMPLES) {
      const pkg = JSON.parse(readFileSync(join(ROOT, 'examples', example, 'package.json'), 'utf8'));
      expect(Object.keys(pkg.peerDependencies), example).toEqual([PACKAGE_NAME]);
    }
  });

  it('ships the docs, the examples and the fake LLM server command, and every relative link in its markdown resolves inside it', () => {
    for (const file of ['README.md', 'docs/plugins.md', 'docs/fake-llm.md', 'dist/bin/assistant-fake-llm.js', 'examples/word-count/src/word-count.worker.ts'])
      expect(packedFiles, file).toContain(file);
    expect(JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).bin).toEqual({ assistant: 'dist/bin/assistant.cjs', 'assistant-fake-llm': 'dist/bin/assistant-fake-llm.js' });
    for (const bin of ['assistant', 'assistant-fake-llm']) expect(existsSync(join(project, 'node_modules/.bin', bin)), bin).toBe(true);
    const markdown = packedFiles.filter((file) => file.endsWith('.md'));
    expect(markdown.length).toBeGreaterThan(15);
    const links = markdown.flatMap((file) =>
      [...readFileSync(join(installed, file), 'utf8').matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1]!.split('#')[0]!)
        .filter((target) => target && !/^[a-z]+:/i.test(target))
        .map((target) => ({ file, target, path: join(installed, dirname(file), target) })),
    );
    expect(links.length).toBeGreaterThan(50);
    const dead = links.filter(({ path }) => !existsSync(path) || relative(installed, path).startsWith('..')).map(({ file, target }) => `${file} → ${target}`);
    expect(dead).toEqual([]);
  });

  it('ships the compiled entry points with their declarations, and no build cache', () => {
    const installed = join(project, 'node_modules/@assistant-cli/assistant');
    for (const file of ['dist/core/index.js', 'dist/core/index.d.ts', 'dist/config/test-kit.js', 'dist/config/test-kit.d.ts', 'dist/core/testing/index.js', 'dist/core/testing/fake-llm/server.d.ts', 'dist/bin/assistant.cjs', 'dist/bin/assistant.js', 'dist/bundle/main.cjs', 'dist/bundle/worker.cjs', 'dist/bundle/bin~cli.js', 'dist/bundle/config~test-kit.js'])
      expect(existsSync(join(installed, file)), file).toBe(true);
    expect(existsSync(join(installed, 'dist/.tsbuildinfo'))).toBe(false);
    expect(JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).exports['./testing']).toEqual({
      types: './dist/config/test-kit.d.ts',
      default: './dist/bundle/config~test-kit.js',
    });
  });

  it('gives a TypeScript consumer the types of both entry points, and catches a misspelt hook at compile time', () => {
    const errors = consumer.output.split('\n').filter((line) => /error TS\d+/.test(line));
    expect(errors).toEqual([expect.stringMatching(/^typo\.ts\(6,18\): error TS2551: Property 'permision' does not exist on type .*Did you mean 'permission'\?/)]);
  });

  it('loads the example plugins by name from .assistantrc, from the project node_modules', async () => {
    writeFiles(project, { '.assistantrc.json': JSON.stringify(projectConfig(), null, 2) });
    const result = await runCli(['--trust-project', 'plugins', '--json'], { cwd: project, env: isolatedEnv(), bin: cli });
    expect(result.stderr).toBe('');
    const rows = JSON.parse(result.stdout) as Array<{ name: string; version: string; source: string; hooks: string[] }>;
    const byName = new Map(rows.map((row) => [row.name, row]));
    expect(byName.get('http')).toMatchObject({ version: '0.1.0', source: join(project, 'node_modules/assistant-plugin-http/dist/index.js'), hooks: ['permission'] });
    expect(byName.get('recent-tool-results')).toMatchObject({ source: join(project, 'node_modules/assistant-plugin-recent-tool-results/dist/index.js'), hooks: ['contextStrategy.recent-tool-results'] });
    expect(byName.get('migration-guard')).toMatchObject({ source: join(project, 'node_modules/assistant-plugin-migration-guard/dist/index.js'), hooks: ['userPrompt', 'permission'] });
    expect(byName.get('word-count')).toMatchObject({ source: join(project, 'node_modules/assistant-plugin-word-count/dist/index.js'), tools: ['WordCount'] });
  });

  it('runs the worker tool through the installed CLI, against the installed assistant-fake-llm command', async () => {
    writeFiles(project, { '.assistantrc.json': JSON.stringify(projectConfig(), null, 2), 'notes.txt': 'four words in here\n' });
    const fixture = join(project, 'word-count-fixture.json');
    writeFileSync(
      fixture,
      JSON.stringify({
        turns: [
          { name: 'count', when: { userText: 'How many words' }, reply: { toolCalls: [{ id: 'wc_1', name: 'WordCount', input: { file_path: 'notes.txt' } }] } },
          { name: 'answer', when: { toolResultFor: 'wc_1', toolResultContains: 'notes.txt: 1 lines, 4 words, 19 characters' }, reply: { text: 'Four words.' } },
        ],
        fallback: { text: 'UNEXPECTED REQUEST' },
      }),
    );
    const server = spawn(join(project, 'node_modules/.bin/assistant-fake-llm'), ['--fixture', fixture], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        server.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const match = /^\s*ANTHROPIC_BASE_URL=(\S+)$/m.exec(out);
          if (match) resolve(match[1]!);
        });
        server.stderr.on('data', (d: Buffer) => (out += d.toString()));
        server.on('error', reject);
        server.on('exit', (code) => reject(new Error(`assistant-fake-llm exited with ${code}: ${out}`)));
      });
      const result = await runCli(['--trust-project', '-p', 'How many words are in notes.txt?'], { cwd: project, env: isolatedEnv({ ANTHROPIC_BASE_URL: url }), bin: cli, timeoutMs: 60_000 });
      const requests = (await (await fetch(`${url}/_requests`)).json()) as Array<{ turn: string; body: unknown }>;
      // The tool result the model was sent: on failure it says what the worker could not do.
      expect(JSON.stringify(requests[1]?.body ?? requests)).toContain('notes.txt: 1 lines, 4 words, 19 characters');
      expect(result).toMatchObject({ code: 0, stdout: 'Four words.\n', stderr: '' });
      expect(requests.map((r) => r.turn)).toEqual(['count', 'answer']);
    } finally {
      server.kill('SIGTERM');
    }
  });

  it('runs them end to end through the installed CLI: the tool, its host policy, the migration guard and the context strategy', async () => {
    const port = new URL(apiOrigin).port;
    writeFiles(project, { '.assistantrc.json': JSON.stringify(projectConfig(), null, 2), 'migrations/001_init.sql': INIT_SQL });
    fake.setFixture({
      turns: [
        { name: 'fetch', when: { userText: 'build is deployed' }, reply: { toolCalls: [{ id: 'http_1', name: 'Http', input: { url: `${apiOrigin}/status` } }] } },
        {
          name: 'edit migration',
          when: { toolResultFor: 'http_1', toolResultContains: '"build":"1234"' },
          reply: { toolCalls: [{ id: 'edit_1', name: 'Write', input: { file_path: 'migrations/001_init.sql', content: '-- build 1234\n' } }] },
        },
        {
          name: 'other host',
          when: { toolResultFor: 'edit_1', toolResultContains: 'migrations are only changed' },
          reply: { toolCalls: [{ id: 'http_2', name: 'Http', input: { url: `http://localhost:${port}/status` } }] },
        },
        { name: 'done', when: { toolResultFor: 'http_2', toolResultContains: 'is not in http.allowHosts' }, reply: { text: 'Build 1234 is deployed; the migration is untouched.' } },
      ],
      fallback: { text: 'UNEXPECTED REQUEST' },
    });
    fake.reset();
    const env = isolatedEnv({ ANTHROPIC_BASE_URL: fake.anthropicBaseURL });
    const result = await runCli(['--trust-project', '-p', 'Which build is deployed?', '--permission-mode', 'acceptEdits'], { cwd: project, env, bin: cli, timeoutMs: 60_000 });
    // The two refusals (the policy plugin's and the tool's own host rule), and nothing else.
    expect(result.stderr.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^denied: Write: migrations\/001_init\.sql is under migrations\//),
      expect.stringMatching(/^denied: Http: localhost:\d+ is not in http\.allowHosts/),
    ]);
    expect(result).toMatchObject({ code: 0, stdout: 'Build 1234 is deployed; the migration is untouched.\n' });
    expect(fake.requests.map((r) => r.turn)).toEqual(['fetch', 'edit migration', 'other host', 'done']);
    expect(apiHits).toEqual(['/status']);
    expect(readFileSync(join(project, 'migrations/001_init.sql'), 'utf8')).toBe(INIT_SQL);
    // The strategy sent the newest result in full and the two older ones as notes.
    const last = JSON.stringify(fake.requests[3]!.body.messages);
    expect(last.match(/Older tool result elided/g)).toHaveLength(2);
    expect(last).not.toContain('\\"build\\":\\"1234\\"');
    expect(last).toContain('is not in http.allowHosts');
  });

  it('refuses an installed plugin built for another kernel API, naming it and what to do', async () => {
    const dir = join(project, 'legacy');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, '.assistantrc.json'), JSON.stringify({ plugins: ['assistant-plugin-future'] }));
    const result = await runCli(['--trust-project', '-p', 'hi'], { cwd: dir, env: isolatedEnv({ ANTHROPIC_BASE_URL: fake.anthropicBaseURL }), bin: cli });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `plugin "future" (${join(project, 'node_modules/assistant-plugin-future/index.js')}) needs kernel API ^3.0.0, but this assistant provides 2.0.0; upgrade assistant or use a version of the plugin built for 2.0.0`,
    );
    expect(result.stdout).toBe('');
  });
});

/** The project's .assistantrc: the four examples by package name, with their options. */
function projectConfig() {
  return {
    plugins: ['assistant-plugin-http', 'assistant-plugin-recent-tool-results', 'assistant-plugin-migration-guard', 'assistant-plugin-word-count'],
    http: { allowHosts: [new URL(apiOrigin).host] },
    context: { strategy: 'recent-tool-results', recentToolResults: { keep: 1, previewChars: 0 } },
    persistence: { store: 'none' },
  };
}
