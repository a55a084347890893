// An MCP prompt typed as a slash command in the real terminal UI becomes the next prompt.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createRunner, messageText, openSession, type OriginEvent } from '../../dist/core/index.js';
import { TerminalApp } from '../../dist/plugins/ui-terminal/app.js';
import { isolatedEnv, makeProject } from '../support/project.js';
import { bootKernel, scriptedConfig } from '../ui/support.js';
import { FIXTURE, nodeServer } from './support.js';

const env = isolatedEnv();

describe('MCP prompts in the terminal UI', () => {
  it('/mcp__fx__greet Ada sends the prompt the server returns, and /mcp lists the server', async () => {
    const dir = makeProject({ '.assistantrc': scriptedConfig({ mcpServers: { fx: nodeServer(FIXTURE) } }) });
    const kernel = await bootKernel(dir, env);
    try {
      const session = await openSession(kernel.hooks, { projectRoot: dir, mode: 'default' });
      kernel.session = session;
      const input = new PassThrough();
      const output = Object.assign(new PassThrough(), { columns: 100, rows: 30 });
      let screen = '';
      output.on('data', (d: Buffer) => (screen += d.toString()));
      const app = new TerminalApp({ kernel, session: { runner: createRunner(kernel, session) }, input: input as unknown as NodeJS.ReadStream, output: output as unknown as NodeJS.WriteStream, options: {}, env });
      kernel.hooks.event.tap('test-forward', (event) => app.onEvent(event));
      const finished = new Promise<void>((resolve) => kernel.hooks.event.tap('test-done', (event: OriginEvent) => event.type === 'done' && resolve()));
      const closed = app.start();

      input.write('/mcp__fx__greet Ada\r');
      await finished;
      const prompt = session.messages.find((m) => m.role === 'user');
      expect(prompt && messageText(prompt)).toBe('Say hello to Ada in one line.');

      const listed = String(await kernel.commands.slash('mcp')!.run('', { print: () => undefined }));
      expect(listed).toMatch(/^fx\s+stdio\s+connected\s+6\s+\.assistantrc$/m);
      app.exit(0);
      await closed;
      expect(screen).toContain('Say hello to Ada in one line.');
    } finally {
      await kernel.shutdown();
    }
  });
});
