// Error codes a plugin owns: declared where the plugin lives, registered when it loads, refused when
// someone else owns them, and carried to the CLI's exit status. The plugins here are third parties:
// they import the package by name, never from plugins/.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AssistantError, defineErrorCodes, definePlugin, formatError, isAssistantError } from '@assistant-cli/assistant';
import { createTestKernel, type TestKernel } from '@assistant-cli/assistant/testing';
import { runCli } from '../support/cli.js';
import { isolatedEnv, makeProject } from '../support/project.js';
import { startFakeLlm, type FakeLlm } from '../providers/helpers.js';

const ACME_ERRORS = defineErrorCodes({
  ACME_QUOTA_EXCEEDED: { exit: 7, text: 'The ACME quota for this project is used up.' },
  ACME_PROMPT_REFUSED: { exit: 5, text: 'ACME refused the prompt.' },
});

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const failureOf = async (make: () => Promise<unknown>) => {
  try {
    await make();
  } catch (error) {
    return error as AssistantError;
  }
  throw new Error('expected a failure');
};

describe('defineErrorCodes', () => {
  it('returns definitions an error is built from, carrying the declared exit status', () => {
    expect(ACME_ERRORS.ACME_QUOTA_EXCEEDED).toEqual({ code: 'ACME_QUOTA_EXCEEDED', exit: 7, text: 'The ACME quota for this project is used up.' });
    const error = new AssistantError(ACME_ERRORS.ACME_QUOTA_EXCEEDED, '3 of 3 runs used today');
    expect(error.code).toBe('ACME_QUOTA_EXCEEDED');
    expect(error.exitCode).toBe(7);
    expect(isAssistantError(error)).toBe(true);
    expect(formatError(error)).toBe('ACME_QUOTA_EXCEEDED: 3 of 3 runs used today');
    // A code thrown by name alone, that no one declared, still maps to a sane status.
    expect(new AssistantError('ACME_UNDECLARED', 'x').exitCode).toBe(1);
  });

  it('refuses codes that are not UPPER_SNAKE with a prefix, and exit statuses a shell would misread', () => {
    const bad = [
      { QUOTA: { exit: 2, text: 'no prefix' } },
      { acme_quota: { exit: 2, text: 'lower case' } },
      { 'ACME-QUOTA': { exit: 2, text: 'kebab' } },
      { ACME_QUOTA_: { exit: 2, text: 'trailing underscore' } },
      { ACME_OK: { exit: 0, text: 'success is not an error' } },
      { ACME_BIG: { exit: 256, text: 'wraps to 0' } },
      { ACME_SIGNAL: { exit: 137, text: 'reads as killed by a signal' } },
      { ACME_EMPTY: { exit: 2, text: ' ' } },
      { ACME_LINES: { exit: 2, text: 'two\nlines' } },
    ];
    for (const specs of bad) {
      let thrown: unknown;
      try {
        defineErrorCodes(specs as never);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, JSON.stringify(specs)).toMatchObject({ code: 'ASSISTANT_PLUGIN_ERROR_CODES_INVALID' });
    }
  });
});

describe("a plugin's error codes", () => {
  const acme = definePlugin({
    name: 'acme',
    errors: ACME_ERRORS,
    apply(kernel) {
      kernel.hooks.userPrompt.tapPromise('acme', async () => {
        throw new AssistantError(ACME_ERRORS.ACME_PROMPT_REFUSED, 'prompts about rockets are refused');
      });
    },
  });

  it('are registered when the plugin loads, with their owner, and keep their code and status through a hook', async () => {
    t = await createTestKernel({ plugins: [acme], builtins: false });
    expect(t.kernel.errorCodes.get('ACME_QUOTA_EXCEEDED')).toEqual({ code: 'ACME_QUOTA_EXCEEDED', exit: 7, text: 'The ACME quota for this project is used up.', owner: 'acme' });
    expect(t.kernel.errorCodes.get('ASSISTANT_USAGE')).toMatchObject({ owner: 'kernel', exit: 2 });
    const error = await failureOf(() => t!.kernel.hooks.userPrompt.promise({ role: 'user', content: [{ type: 'text', text: 'rockets' }] }, { turn: 1, signal: new AbortController().signal }));
    expect(error.code).toBe('ACME_PROMPT_REFUSED');
    expect(t.kernel.errorCodes.exitStatus(error)).toBe(5);
    // Thrown by name alone, a registered code still maps to its declared status through the kernel.
    expect(t.kernel.errorCodes.exitStatus(new AssistantError('ACME_QUOTA_EXCEEDED', 'by name'))).toBe(7);
    expect(t.kernel.errorCodes.exitStatus(new Error('not coded'))).toBe(1);
    // Error-shaped objects from another copy of the package never break the exit path.
    const brand = Symbol.for('@assistant-cli/assistant.AssistantError');
    expect(t.kernel.errorCodes.exitStatus({ code: 'ASSISTANT_FROM_ELSEWHERE', message: 'x', exitCode: 'seven' })).toBe(1);
    expect(t.kernel.errorCodes.exitStatus({ code: 'ACME_ELSEWHERE', message: 'x', exitCode: 300, [brand]: true })).toBe(1);
    expect(t.kernel.errorCodes.exitStatus({ code: 'ACME_ELSEWHERE', message: 'x', exitCode: 6, [brand]: true })).toBe(6);
  });

  it("are refused at load when the kernel owns one, naming the kernel", async () => {
    const squatter = definePlugin({ name: 'squatter', errors: { ASSISTANT_USAGE: { exit: 9, text: 'mine now' } }, apply() {} });
    const error = await failureOf(() => createTestKernel({ plugins: [squatter], builtins: false }));
    expect(error.code).toBe('ASSISTANT_PLUGIN_ERROR_CODES_INVALID');
    expect(error.message).toContain('plugin "squatter" declares ASSISTANT_USAGE, which the kernel already owns');
    expect(error.exitCode).toBe(2);
  });

  it('are refused at load when another plugin owns one, naming both plugins', async () => {
    const copycat = definePlugin({ name: 'copycat', errors: { ACME_QUOTA_EXCEEDED: { exit: 3, text: 'same code, other owner' } }, apply() {} });
    const error = await failureOf(() => createTestKernel({ plugins: [acme, copycat], builtins: false }));
    expect(error.code).toBe('ASSISTANT_PLUGIN_ERROR_CODES_INVALID');
    expect(error.message).toContain('plugin "copycat" declares ACME_QUOTA_EXCEEDED, which plugin "acme" already owns');
  });

  it("are refused at load when a built-in's code is taken, and when malformed in a plain JavaScript plugin", async () => {
    const taker = definePlugin({ name: 'taker', errors: { ASSISTANT_MCP_SERVER_UNKNOWN: { exit: 2, text: 'taken' } }, apply() {} });
    const taken = await failureOf(() => createTestKernel({ plugins: [taker], builtins: ['mcp'] }));
    expect(taken.message).toContain('plugin "taker" declares ASSISTANT_MCP_SERVER_UNKNOWN, which plugin "mcp" already owns');
    const sloppy = definePlugin({ name: 'sloppy', errors: { oops: { exit: 1, text: 'x' } } as never, apply() {} });
    const malformed = await failureOf(() => createTestKernel({ plugins: [sloppy], builtins: false }));
    expect(malformed.code).toBe('ASSISTANT_PLUGIN_ERROR_CODES_INVALID');
    expect(malformed.message).toContain('plugin "sloppy": "oops" is not UPPER_SNAKE with a prefix');
  });

  it('may not pass for assistant\'s own: the ASSISTANT_ prefix is refused to a plugin not shipped with it, even when the code is free', async () => {
    const impostor = definePlugin({ name: 'acme-tools', errors: { ASSISTANT_ACME_BROKEN: { exit: 1, text: 'looks official' } }, apply() {} });
    const error = await failureOf(() => createTestKernel({ plugins: [impostor], builtins: false }));
    expect(error.code).toBe('ASSISTANT_PLUGIN_ERROR_CODES_INVALID');
    expect(error.message).toContain('plugin "acme-tools" declares ASSISTANT_ACME_BROKEN: the ASSISTANT_ prefix belongs to assistant and its built-in plugins; use a prefix of your own (e.g. ACME_TOOLS_...)');
  });
});

describe('the CLI and a third-party plugin with its own codes', () => {
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await startFakeLlm({ fixture: { turns: [] } });
  });
  afterAll(() => fake.close());

  // A plugin file in the user's project, importing the package by name (the running copy answers).
  const ACME_PLUGIN = `
import { writeFileSync } from 'node:fs';
import { AssistantError, defineErrorCodes, definePlugin } from '@assistant-cli/assistant';

const ACME_ERRORS = defineErrorCodes({
  ACME_QUOTA_EXCEEDED: { exit: 7, text: 'The ACME quota for this project is used up.' },
  ACME_PROMPT_REFUSED: { exit: 5, text: 'ACME refused the prompt.' },
});

export default definePlugin({
  name: 'acme',
  errors: ACME_ERRORS,
  apply(kernel) {
    kernel.hooks.userPrompt.tapPromise('acme', async () => {
      throw new AssistantError(ACME_ERRORS.ACME_PROMPT_REFUSED, 'prompts about rockets are refused');
    });
    kernel.hooks.commands.tap('acme', (registry) =>
      registry.addCli({ name: 'acme-quota', description: 'checks the ACME quota', action: async () => {
        // Thrown by name: the kernel's registry knows its status.
        throw new AssistantError('ACME_QUOTA_EXCEEDED', '3 of 3 runs used today');
      } }),
    );
    kernel.hooks.failed.tap('acme', (error) => writeFileSync('failed.json', JSON.stringify({ code: error.code, message: error.message })));
  },
});
`;

  const project = () => makeProject({ 'acme.mjs': ACME_PLUGIN, '.assistantrc.json': JSON.stringify({ plugins: ['./acme.mjs'] }) });
  const failedSeen = (dir: string) => JSON.parse(readFileSync(join(dir, 'failed.json'), 'utf8')) as { code: string; message: string };

  it('prints a run-ending ACME error as CODE: message, exits with its declared status, and tells the failed observers', async () => {
    const dir = project();
    const result = await runCli(['--trust-project', '-p', 'build a rocket'], { cwd: dir, env: isolatedEnv({ ANTHROPIC_BASE_URL: fake.anthropicBaseURL }), timeoutMs: 100_000 });
    expect(result.stderr).toContain('ACME_PROMPT_REFUSED: prompts about rockets are refused');
    expect(result.code).toBe(5);
    expect(failedSeen(dir)).toEqual({ code: 'ACME_PROMPT_REFUSED', message: 'prompts about rockets are refused' });
    expect(fake.requests).toHaveLength(0);
  });

  it("maps a code thrown by name from a plugin's subcommand through the registry, and fires failed from the top-level catch", async () => {
    const dir = project();
    const result = await runCli(['--trust-project', 'acme-quota'], { cwd: dir, env: isolatedEnv(), timeoutMs: 100_000 });
    expect(result.stderr.trim()).toBe('ACME_QUOTA_EXCEEDED: 3 of 3 runs used today');
    expect(result.code).toBe(7);
    expect(failedSeen(dir)).toEqual({ code: 'ACME_QUOTA_EXCEEDED', message: '3 of 3 runs used today' });
  });

  it("refuses a project plugin that claims a kernel code, before anything runs", async () => {
    const dir = makeProject({
      'squat.mjs': `export default { name: 'squat', errors: { ASSISTANT_CONFIG_INVALID: { exit: 0, text: 'x' } }, apply() {} };`,
      '.assistantrc.json': JSON.stringify({ plugins: ['./squat.mjs'] }),
    });
    writeFileSync(join(dir, 'README.md'), '# x\n');
    const result = await runCli(['--trust-project', '-p', 'hi'], { cwd: dir, env: isolatedEnv({ ANTHROPIC_BASE_URL: fake.anthropicBaseURL }), timeoutMs: 100_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('ASSISTANT_PLUGIN_ERROR_CODES_INVALID: plugin "squat": ASSISTANT_CONFIG_INVALID: exit must be an integer from 1 to 125');
  });
});
