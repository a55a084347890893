// The `hooks` section is validated when the kernel is created: clear errors naming the file, the
// JSON path and what was expected.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel/kernel.js';
import { isAssistantError } from '../../dist/core/index.js';
import { isolatedEnv, makeProject } from '../support/project.js';

async function bootWith(hooks: unknown): Promise<{ error: unknown; file: string }> {
  const dir = makeProject({ '.assistantrc': JSON.stringify({ hooks }) });
  const config = await loadConfig({ cwd: dir, env: isolatedEnv(), noUserConfig: true });
  const error = await createKernel({ config, headless: true }).then(
    (kernel) => kernel.shutdown().then(() => undefined),
    (e: unknown) => e,
  );
  return { error, file: join(dir, '.assistantrc') };
}

const cmd = { type: 'command', command: 'true' };

describe('the hooks section', () => {
  it('accepts the documented shape, with the hooks-shell plugin loaded', async () => {
    const dir = makeProject({
      '.assistantrc': JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ ...cmd, timeout: 30 }] }],
          PostToolUse: [{ matcher: '*', hooks: [cmd] }],
          UserPromptSubmit: [{ hooks: [cmd] }],
          Stop: [{ matcher: '', hooks: [cmd] }],
          SessionStart: [{ matcher: 'startup|resume', hooks: [cmd] }],
        },
      }),
    });
    const kernel = await createKernel({ config: await loadConfig({ cwd: dir, env: isolatedEnv(), noUserConfig: true }), headless: true });
    expect(kernel.plugins.find((p) => p.name === 'hooks-shell')?.hooks).toEqual(['beforeToolCall', 'afterToolCall', 'userPrompt', 'beforeStop', 'sessionOpen', 'systemPrompt']);
    await kernel.shutdown();
  });

  it('taps nothing when no hooks are configured', async () => {
    const kernel = await createKernel({ config: await loadConfig({ cwd: makeProject(), env: isolatedEnv(), noUserConfig: true }), headless: true });
    expect(kernel.plugins.find((p) => p.name === 'hooks-shell')?.hooks).toEqual([]);
    await kernel.shutdown();
  });

  const cases: Array<[string, unknown, RegExp]> = [
    ['an unknown event, listing the events', { PreTooluse: [{ hooks: [cmd] }] }, /\/hooks\/PreTooluse: is not an event hooks run on; the events are PreToolUse, PostToolUse, UserPromptSubmit, Stop, SessionStart/],
    ['a matcher that is not a regular expression', { PreToolUse: [{ matcher: 'Edit(', hooks: [cmd] }] }, /\/hooks\/PreToolUse\/0\/matcher: is not a valid regular expression/],
    ['a matcher on an event that has none', { Stop: [{ matcher: 'Bash', hooks: [cmd] }] }, /\/hooks\/Stop\/0\/matcher: Stop hooks take no matcher/],
    ['a hook without a command', { PostToolUse: [{ hooks: [{ type: 'command' }] }] }, /\/hooks\/PostToolUse\/0\/hooks\/0: must have the key "command"/],
    ['a hook type other than command', { PostToolUse: [{ hooks: [{ type: 'prompt', command: 'x' }] }] }, /\/hooks\/PostToolUse\/0\/hooks\/0\/type: must be one of "command"/],
    ['a timeout that is not positive', { PostToolUse: [{ hooks: [{ ...cmd, timeout: 0 }] }] }, /\/hooks\/PostToolUse\/0\/hooks\/0\/timeout: must be > 0/],
    ['a group that is not a list', { PostToolUse: { hooks: [cmd] } }, /\/hooks\/PostToolUse: must be array/],
  ];
  for (const [what, hooks, message] of cases)
    it(`refuses ${what}`, async () => {
      const { error, file } = await bootWith(hooks);
      expect(isAssistantError(error) && error.code).toBe('ASSISTANT_PLUGIN_OPTIONS_INVALID');
      expect((error as Error).message).toContain(`invalid options for plugin "hooks-shell" in ${file}`);
      expect((error as Error).message).toMatch(message);
    });
});
