// The uses docs/hooks.md gives for hooks that third parties tap, each as such a plugin would write it
// (through the package's public entry and its test kit), against the scripted model.
import { afterEach, describe, expect, it } from 'vitest';
import { definePlugin, Stage, type Kernel, type ToolDefinition } from '@assistant-cli/assistant';
import { createTestKernel, type TestKernel } from '@assistant-cli/assistant/testing';
import { runFromFlags } from '@assistant-cli/assistant/kits/agent';

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A read-only main-thread tool the permission layer allows, so the loop runs it headless. */
function echoTool(name = 'Echo'): ToolDefinition<{ text: string }> {
  return {
    name,
    description: 'Echoes text back.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
    access: 'read',
    risk: { category: 'read' },
    handler: async (input) => ({ content: [{ type: 'text', text: `echo: ${input.text}` }] }),
  } as ToolDefinition<{ text: string }>;
}

const allowEcho = (kernel: Kernel, plugin: string) =>
  kernel.hooks.permission.tapPromise({ name: plugin, stage: Stage.POLICY }, async (request) =>
    request.tool.startsWith('Echo') ? { behavior: 'allow', reason: 'echo is harmless', layer: plugin } : undefined,
  );

/** The built-ins a prompt needs: the provider the scripted model speaks, and a context strategy. */
const MINIMAL = ['provider-anthropic', 'context-compaction'];

const ECHO_THEN_DONE = {
  turns: [{ when: { userText: 'echo hi' }, reply: { toolCalls: [{ id: 'echo_1', name: 'Echo', input: { text: 'hi' } }] } }],
  fallback: { text: 'done' },
};

describe('hooks with a third-party use', () => {
  it('toolDefinition: project guidance in a tool description reaches the model, and the tool itself is unchanged', async () => {
    const guidance = definePlugin({
      name: 'pnpm-guidance',
      apply(kernel) {
        kernel.hooks.toolDefinition.tap('pnpm-guidance', (spec) => (spec.name === 'Bash' ? { ...spec, description: `${spec.description}\nThis project uses pnpm: never run npm.` } : spec));
      },
    });
    t = await createTestKernel({ plugins: [guidance], model: { fallback: { text: 'ok' } } });
    await t.prompt('hello');
    const tools = (t.fake!.requests.at(-1)!.body as { tools: Array<{ name: string; description: string }> }).tools;
    expect(tools.find((tool) => tool.name === 'Bash')!.description).toMatch(/\nThis project uses pnpm: never run npm\.$/);
    expect(tools.find((tool) => tool.name === 'Read')!.description).not.toContain('pnpm');
    expect(t.kernel.tools.get('Bash')!.description).not.toContain('pnpm');
  });

  it("turnEnd: a checkpoint sees the turn's tool results in the history and finishes before the next model call", async () => {
    const seen: Array<{ turn: number; requestsSoFar: number; lastResult: string; requestsAfter: number }> = [];
    let fake: TestKernel['fake'];
    const checkpoint = definePlugin({
      name: 'checkpoint',
      apply(kernel) {
        kernel.tools.register(echoTool());
        allowEcho(kernel, 'checkpoint');
        kernel.hooks.turnEnd.tapPromise('checkpoint', async (turn) => {
          const requestsSoFar = fake!.requests.length;
          const last = kernel.session!.messages.at(-1)!;
          // A checkpoint that takes a while (a git commit): the loop must wait for it.
          await new Promise((resolve) => setTimeout(resolve, 50));
          const lastResult = JSON.stringify(last.content);
          seen.push({ turn: turn.turn, requestsSoFar, lastResult, requestsAfter: fake!.requests.length });
        });
      },
    });
    t = await createTestKernel({ plugins: [checkpoint], builtins: MINIMAL, model: ECHO_THEN_DONE });
    fake = t.fake;
    t.kernel.session = await t.session();
    const result = await t.prompt('echo hi');
    expect(result.reason).toBe('completed');
    expect(seen[0]).toMatchObject({ turn: 1, requestsSoFar: 1, requestsAfter: 1 });
    expect(seen[0]!.lastResult).toContain('echo: hi');
    expect(t.fake!.requests).toHaveLength(2);
  });

  it('ready and registerTools: a tool found asynchronously at start is offered to the model and runs', async () => {
    const order: string[] = [];
    const discovered = definePlugin({
      name: 'discovered',
      apply(kernel) {
        allowEcho(kernel, 'discovered');
        kernel.hooks.ready.tapPromise('discovered', async () => void order.push('ready'));
        kernel.hooks.registerTools.tapPromise('discovered', async (registry) => {
          await new Promise((resolve) => setImmediate(resolve));
          order.push('registerTools');
          registry.register(echoTool());
        });
      },
    });
    t = await createTestKernel({ plugins: [discovered], builtins: MINIMAL, model: ECHO_THEN_DONE });
    expect(t.kernel.tools.get('Echo')).toBeUndefined();
    await t.kernel.start();
    expect(order).toEqual(['ready', 'registerTools']);
    await t.prompt('echo hi');
    expect(JSON.stringify(t.fake!.requests[0]!.body)).toContain('"name":"Echo"');
    expect(JSON.stringify(t.fake!.requests[1]!.body)).toContain('echo: hi');
  });

  it('providerRequest: a parameter a plugin sets reaches the wire', async () => {
    const temperature = definePlugin({
      name: 'cold',
      apply(kernel) {
        kernel.hooks.providerRequest.tapPromise('cold', async (request) => ({ ...request, temperature: 0 }));
      },
    });
    t = await createTestKernel({ plugins: [temperature], builtins: MINIMAL, model: { fallback: { text: 'ok' } } });
    await t.prompt('hello');
    expect((t.fake!.requests[0]!.body as { temperature?: number }).temperature).toBe(0);
  });

  it('interactive: on a terminal the run is handed to the UI plugin with the first prompt, and its answer is the exit status', async () => {
    const handed: Array<{ prompt?: string; session: string }> = [];
    const ui = definePlugin({
      name: 'tiny-ui',
      apply(kernel) {
        kernel.hooks.interactive.tapPromise('tiny-ui', async ({ runner, initialPrompt }) => {
          handed.push({ prompt: initialPrompt, session: runner.session.info.id });
          return 3;
        });
      },
    });
    t = await createTestKernel({ plugins: [ui], builtins: MINIMAL, model: { fallback: { text: 'ok' } } });
    const tty = { stdin: process.stdin.isTTY, stdout: process.stdout.isTTY };
    process.stdin.isTTY = true;
    process.stdout.isTTY = true;
    try {
      expect(await runFromFlags(t.kernel, 'fix the build', {})).toBe(3);
    } finally {
      process.stdin.isTTY = tty.stdin;
      process.stdout.isTTY = tty.stdout;
    }
    expect(handed).toEqual([{ prompt: 'fix the build', session: expect.any(String) }]);
  });
});
