// An MCP prompt typed as a slash command in the real terminal UI becomes the next prompt.
import { describe, expect, it } from 'vitest';
import { messageText, type OriginEvent } from '../../dist/core/index.js';
import { openSession } from '../../dist/core/kits/agent/index.js';
import { isolatedEnv, makeProject } from '../support/project.js';
import { bootKernel, scriptedConfig, startAppOn } from '../ui/support.js';
import { FIXTURE, nodeServer } from './support.js';

const env = isolatedEnv();

describe('MCP prompts in the terminal UI', () => {
  it('/mcp__fx__greet Ada sends the prompt the server returns, and /mcp lists the server', async () => {
    const dir = makeProject({ '.assistantrc': scriptedConfig({ mcpServers: { fx: nodeServer(FIXTURE) } }) });
    const kernel = await bootKernel(dir, env);
    try {
      const session = await openSession(kernel, { projectRoot: dir, mode: 'default' });
      kernel.session = session;
      const ui = startAppOn(kernel, session, env, { columns: 100, rows: 30 });
      kernel.hooks.event.tap('test-forward', (event) => ui.app.onEvent(event));
      const finished = new Promise<void>((resolve) => kernel.hooks.event.tap('test-done', (event: OriginEvent) => event.type === 'done' && resolve()));

      ui.input.write('/mcp__fx__greet Ada\r');
      await finished;
      const prompt = session.messages.find((m) => m.role === 'user');
      expect(prompt && messageText(prompt)).toBe('Say hello to Ada in one line.');

      const listed = String(await kernel.commands.slash('mcp')!.run('', { print: () => undefined }));
      expect(listed).toMatch(/^fx\s+stdio\s+connected\s+6\s+\.assistantrc$/m);
      ui.app.exit(0);
      await ui.done;
      expect(ui.screen()).toContain('Say hello to Ada in one line.');
    } finally {
      await kernel.shutdown();
    }
  });
});
