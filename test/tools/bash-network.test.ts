// The sandbox's network cut is never a surprise: the Bash description says whether commands have
// network, a command that fails on DNS or a connection is told why, and `network: true` runs one
// command with network only after a person said yes (bypass mode aside), otherwise sandboxed.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest, Kernel } from '../../dist/core/index.js';
import { probeSandbox } from '../../dist/plugins/tool-bash/sandbox.js';
import { makeProject } from '../support/project.js';
import { kernelFor, mustHaveTools, reachableServer, runOne, text } from './helpers.js';

const RUNNER = new URL('./fixtures/bash-runner.mjs', import.meta.url).pathname;
const probe = probeSandbox();
if (!probe.available && !mustHaveTools) console.warn(`the Bash network tests are skipped: ${probe.reason}`);
const sandboxed = describe.skipIf(!probe.available && !mustHaveTools);

const kernels: Kernel[] = [];
const server = reachableServer(kernels);

const fetchCommand = () => `node -e "fetch('${server.url}').then(r => r.text()).then(t => console.log('got ' + t), e => { console.log('net error: ' + (e.cause?.code ?? e.message)); process.exit(1) })"`;
const lookupCommand = `node -e "require('dns').lookup('registry.npmjs.org', (e) => { if (e) { console.error(e.code); process.exit(1) } })"`;

async function kernelWith(sandbox: unknown, options: { headless?: boolean; approve?: (items: ApprovalRequest[]) => void } = {}) {
  const { kernel } = await kernelFor(makeProject({}), undefined, { config: { sandbox: sandbox as 'auto' }, headless: options.headless ?? true });
  kernels.push(kernel);
  if (options.approve)
    kernel.hooks.approval.tapPromise('test-approve', async (items) => {
      options.approve!(items);
      return items.map(() => ({ behavior: 'allow' as const, scope: 'once' as const }));
    });
  return kernel;
}

sandboxed('the network cut of the Bash sandbox', () => {
  it('is stated in the tool description, from the config', async () => {
    const describeBash = async (sandbox: unknown) => (await kernelWith(sandbox)).tools.get('Bash')!.description;
    expect(await describeBash('auto')).toMatch(/WITHOUT network access.*set `"network": true` on that call; the user is asked/);
    expect(await describeBash({ mode: 'auto', network: true })).toMatch(/OS sandbox .* with network access\./);
    expect(await describeBash('off')).toMatch(/without an OS sandbox, with network access/);
    // The flag is offered only where commands lack network.
    const schemaOf = async (sandbox: unknown) => (await kernelWith(sandbox)).tools.get('Bash')!.inputSchema as { properties: Record<string, unknown> };
    expect((await schemaOf('auto')).properties.network).toMatchObject({ type: 'boolean' });
    expect((await schemaOf('off')).properties.network).toBeUndefined();
  });

  it('explains a DNS or connection failure in the result', async () => {
    const kernel = await kernelWith('auto');
    for (const command of [lookupCommand, fetchCommand()]) {
      const result = await runOne(kernel, 'Bash', { command });
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/(EAI_AGAIN|ENOTFOUND|ECONNREFUSED)[\s\S]*the sandbox, which has no network[\s\S]*"network": true/);
    }
    // A failure that has nothing to do with the network gets no such note.
    expect(text(await runOne(kernel, 'Bash', { command: 'ls /nonexistent' }))).not.toMatch(/no network/);
  });

  it('asks a person before a command runs with network, shows it, then runs it once with network', async () => {
    // Even a policy that allows everything at the default stage does not wave it through headless.
    const headless = await kernelWith('auto');
    const refused = await runOne(headless, 'Bash', { command: fetchCommand(), network: true });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/asks to run once WITH network access/);

    const seen: ApprovalRequest[] = [];
    const kernel = await kernelWith('auto', { headless: false, approve: (items) => seen.push(...items) });
    const result = await runOne(kernel, 'Bash', { command: fetchCommand(), network: true });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.decision.reason).toMatch(/WITH network access, outside the sandbox's network cut \(otherwise sandboxed\)/);
    expect(text(result)).toBe('got reached');
    expect(result.metadata).toMatchObject({ sandboxed: true, network: true });
    // Once: the next command is cut off again, and still sandboxed.
    expect(text(await runOne(kernel, 'Bash', { command: fetchCommand() }))).toMatch(/^net error: ECONNREFUSED/);
    expect(text(await runOne(kernel, 'Bash', { command: 'touch /etc/x', network: true }))).toMatch(/Read-only file system/);
  });

  it('is never auto-allowed by the built-in policy in default or acceptEdits mode, refused in plan mode; bypass runs it', async () => {
    const root = makeProject({});
    // Asynchronously: the test's own HTTP server must stay able to answer.
    const run = async (mode: string, command: string) => {
      const job = { root, mode, permissions: true, config: { sandbox: 'auto' }, commands: [{ command, network: true }] };
      const { stdout } = await promisify(execFile)(process.execPath, [RUNNER, JSON.stringify(job)], { cwd: root, encoding: 'utf8', timeout: 120_000 });
      return (JSON.parse(stdout) as Array<{ text: string; isError: boolean }>)[0]!;
    };
    // `ls` alone is allowed in every mode; `mkdir` in acceptEdits; with network each needs a person.
    for (const [mode, command] of [['default', 'ls'], ['acceptEdits', 'mkdir made'], ['plan', 'ls']]) {
      const result = await run(mode!, command!);
      expect(result.isError, `${mode}: ${command}`).toBe(true);
      expect(result.text).toMatch(mode === 'plan' ? /plan mode is read-only/ : /network access/);
    }
    expect((await run('bypass', fetchCommand())).text).toBe('got reached');
  });
});
