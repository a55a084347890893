// The strategies on long sessions through the wire-compatible fake LLM server: the real Anthropic
// SDK and provider plugin, the real file tools, and the server's prompt-cache accounting (which
// follows Anthropic's rules). The scripted-provider tests beside this one check the finer points.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel/kernel.js';
import { type Kernel, type OriginEvent } from '../../dist/core/index.js';
import { createRunner, openSession } from '../../dist/core/kits/agent/index.js';
import { gitProject, requestText, startFakeLlm, type FakeLlm } from '../e2e/support.js';
import { isolatedEnv } from '../support/project.js';
import type { TurnSpec } from '../../dist/core/testing/index.js';

const WINDOW = 24_000;
const MAX_TOKENS = 2000;
const PROMPTS = 12;
const SUMMARY = '## Goal\nFix every module.\n\n## Decisions\nRead each file.\n\n## Files changed\n- none\n\n## Current state\nReading.\n\n## Open todos\n- none\n\n## User preferences\n- none';

let fake: FakeLlm;
const kernels: Kernel[] = [];
beforeAll(async () => {
  fake = await startFakeLlm({ fixture: { turns: [] } });
});
afterAll(async () => {
  for (const kernel of kernels.splice(0)) await kernel.shutdown();
  await fake?.close();
});

const prompt = (i: number) => `Prompt ${i}: look at modules ${2 * i} and ${2 * i + 1}.`;
const module = (n: number) => `src/module-${n}.ts`;

/** Each prompt: two turns reading one module each, then an answer; a final prompt edits module 0. Summary requests (not streamed) get SUMMARY. */
function sessionFixture() {
  const turns: TurnSpec[] = [{ name: 'summary', when: { stream: false }, times: 0, reply: { text: SUMMARY } }];
  for (let i = 0; i < PROMPTS; i++) {
    turns.push(
      { name: `p${i}-a`, when: { userText: `Prompt ${i}:` }, reply: { text: 'Reading.', toolCalls: [{ id: `p${i}a`, name: 'Read', input: { file_path: module(2 * i) } }] } },
      { name: `p${i}-b`, when: { toolResultFor: `p${i}a` }, reply: { toolCalls: [{ id: `p${i}b`, name: 'Read', input: { file_path: module(2 * i + 1) } }] } },
      { name: `p${i}-done`, when: { toolResultFor: `p${i}b` }, reply: { text: `Done with prompt ${i}.` } },
    );
  }
  turns.push(
    { name: 'edit', when: { userText: 'rename the first export' }, reply: { toolCalls: [{ id: 'edit0', name: 'Edit', input: { file_path: module(0), old_string: 'export const value0 =', new_string: 'export const renamed0 =' } }] } },
    { name: 'edited', when: { toolResultFor: 'edit0' }, reply: { text: 'Renamed.' } },
  );
  return { turns, fallback: { text: 'UNEXPECTED REQUEST' } };
}

/** 60 lines of about 70 characters: about 1,100 tokens once numbered and sent back. */
function moduleText(n: number): string {
  const lines = [`export const value${n} = ${n};`];
  for (let i = 1; i < 60; i++) lines.push(`// module ${n}, line ${i}: ${'padding text that makes the file longer '.slice(0, 48)}`);
  return lines.join('\n') + '\n';
}

/** A kernel in this process on a fresh git project, the real provider pointed at the fake server, the given strategy. */
async function session(context: Record<string, unknown>) {
  fake.setFixture(sessionFixture());
  fake.reset();
  const files: Record<string, string> = { 'README.md': '# modules\n' };
  for (let n = 0; n < 2 * PROMPTS; n++) files[module(n)] = moduleText(n);
  const dir = gitProject(files);
  const config = await loadConfig({
    cwd: dir,
    env: isolatedEnv(),
    noUserConfig: true,
    flags: {
      provider: { name: 'anthropic', model: 'claude-sonnet-4-6', baseURL: fake.anthropicBaseURL, contextWindow: WINDOW, maxTokens: MAX_TOKENS },
      persistence: { store: 'none' },
      context,
    },
  });
  const kernel = await createKernel({ config, headless: true });
  kernels.push(kernel);
  const events: OriginEvent[] = [];
  kernel.hooks.event.tap('test-events', (event) => void events.push(event));
  await kernel.start();
  const state = await openSession(kernel, { projectRoot: kernel.projectRoot, mode: 'acceptEdits' });
  kernel.session = state;
  const runner = createRunner(kernel, state);
  for (let i = 0; i < PROMPTS; i++) {
    const result = await runner.run(prompt(i));
    expect(result, `prompt ${i}`).toMatchObject({ reason: 'completed', text: `Done with prompt ${i}.` });
  }
  return { dir, kernel, runner, state, events };
}

type Seen = FakeLlm['requests'][number];
/** The server's prompt-cache accounting of a request. */
const usageOf = (r: Seen) => r.usage as { inputTokens: number; cacheReadTokens: number; cacheWriteTokens: number };
const inputOf = (r: Seen) => usageOf(r).inputTokens + usageOf(r).cacheReadTokens + usageOf(r).cacheWriteTokens;
const streamed = () => fake.requests.filter((r) => r.body.stream === true);

/** No failed request, no unscripted one, and every request (its output reserve included) inside the window. */
function expectAllWithinWindow() {
  expect(fake.requests.filter((r) => r.status !== 200 || r.turn === undefined).map((r) => `${r.status} ${r.turn}`)).toEqual([]);
  for (const r of fake.requests) expect(inputOf(r) + r.body.max_tokens, `request ${r.turn}`).toBeLessThanOrEqual(WINDOW);
}

/** Requests whose message history is not an extension of the one before (a compaction or rotation happened between them). */
function rewrites(requests: Seen[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < requests.length; i++) {
    const before = requests[i - 1]!.body.messages.map((m: unknown) => JSON.stringify(m));
    const after = requests[i]!.body.messages.map((m: unknown) => JSON.stringify(m));
    // The newest message of a request carries the moving cache breakpoint, so compare without cache_control.
    const plain = (s: string) => s.replaceAll(',"cache_control":{"type":"ephemeral"}', '');
    if (before.slice(0, -1).some((m: string, j: number) => plain(m) !== plain(after[j] ?? ''))) out.push(i);
  }
  return out;
}

describe('context strategies through the fake LLM server', () => {
  it('compaction: every request fits, the summary request reuses the cache, user messages survive, and an Edit right after works', async () => {
    const { dir, runner, events } = await session({ strategy: 'compaction', compaction: { keepRecentTokens: 4000, summaryMaxTokens: 1000 } });
    const summaries = fake.requests.filter((r) => r.turn === 'summary');
    expect(summaries.length).toBeGreaterThanOrEqual(1);
    expect(events.filter((e) => e.type === 'notice' && /^compacted the context: \d+ → \d+ tokens \(saved \d+\)/.test(e.message))).toHaveLength(summaries.length);

    // The summary request asks for the structured summary and is read from the cache the turn before wrote.
    for (const summary of summaries) {
      const instruction = JSON.stringify(summary.body.messages.at(-1));
      for (const heading of ['## Goal', '## Decisions', '## Files changed', '## Current state', '## Open todos', '## User preferences']) expect(instruction).toContain(heading);
      const before = fake.requests[fake.requests.indexOf(summary) - 1]!;
      expect(usageOf(summary).cacheReadTokens).toBeGreaterThan(inputOf(before) * 0.9);
    }

    // Every prompt the user typed is still in what the model sees, word for word.
    const last = streamed().at(-1)!;
    for (let i = 0; i < PROMPTS; i++) expect(requestText(last)).toContain(prompt(i));

    // module-0 was read in prompt 0, long since summarized: the tools still know it was read.
    const edit = await runner.run('rename the first export');
    expect(edit).toMatchObject({ reason: 'completed', text: 'Renamed.' });
    expect(readFileSync(join(dir, module(0)), 'utf8')).toMatch(/^export const renamed0 = 0;/);
    expect(requestText(fake.requests.at(-1)!)).not.toMatch(/has not been read|changed since you last read/);
    expectAllWithinWindow();
  }, 300_000);

  it('rolling: the prefix stays byte-identical between rotations, so each request reads the one before from the cache', async () => {
    await session({ strategy: 'rolling', rolling: { maxMessages: 24, rotationInterval: 8 } });
    const requests = streamed();
    const rotations = rewrites(requests);
    expect(rotations.length).toBeGreaterThanOrEqual(1);
    expect(rotations.length).toBeLessThanOrEqual(Math.ceil(requests.length / 4));
    for (let i = 1; i < requests.length; i++) {
      if (rotations.includes(i)) continue;
      // Everything the previous request sent is read back; only the new messages are written.
      expect(usageOf(requests[i]!).cacheReadTokens, `request ${i}`).toBeGreaterThanOrEqual(inputOf(requests[i - 1]!) - 4);
    }
    expectAllWithinWindow();
  }, 300_000);

  it('static: append-only, every request an extension of the one before, refusing once the window is full', async () => {
    fake.setFixture(sessionFixture());
    await expect(session({ strategy: 'static' })).rejects.toThrow(/prompt \d+/);
    const requests = streamed();
    expect(rewrites(requests)).toEqual([]);
    for (let i = 1; i < requests.length; i++) expect(usageOf(requests[i]!).cacheReadTokens).toBeGreaterThanOrEqual(inputOf(requests[i - 1]!) - 4);
    expectAllWithinWindow();
  }, 300_000);
});
