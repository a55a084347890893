// The fake LLM server itself: prompt-cache rules, turn matching, request log, wire checks, CLI.
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/project.js';
import { AnthropicPromptCache, OpenAIPromptCache, minCacheableTokens } from '../../dist/core/testing/fake-llm/prompt-cache.js';
import { checkFixture } from '../../dist/core/testing/fake-llm/script.js';
import { startFakeLlm, type FakeLlm } from '../providers/helpers.js';

/** Response bodies in these tests are checked field by field, so read them untyped. */
const asAny = (value: unknown): any => value;

const SERVER = fileURLToPath(new URL('./server.js', import.meta.url));

/** A text block of exactly `tokens` tokens in the fake's accounting (4 characters each, JSON included). */
function userBlock(tokens: number, tag: string, first: boolean) {
  const overhead = JSON.stringify({ block: { text: '', type: 'text' }, role: 'user', ...(first ? { start: true } : {}) }).length;
  return { type: 'text', text: tag + 'x'.repeat(tokens * 4 - overhead - tag.length) };
}

/** A request of `n` user blocks of 100 tokens each, with breakpoints on the given block indices. */
function blocksRequest(n: number, breakpoints: number[], model = 'claude-sonnet-4-6') {
  const content = Array.from({ length: n }, (_, i) => ({ ...userBlock(100, `b${String(i).padStart(3, '0')}`, i === 0), ...(breakpoints.includes(i) ? { cache_control: { type: 'ephemeral' } } : {}) }));
  return { model, max_tokens: 10, messages: [{ role: 'user', content }] };
}

describe('Anthropic prompt-cache accounting', () => {
  it('counts the fake tokens the way the helper assumes', () => {
    expect(AnthropicPromptCache.inputTokens(blocksRequest(3, []))).toBe(300);
  });

  it('writes a prefix at a breakpoint, then reads it exactly', () => {
    const cache = new AnthropicPromptCache();
    expect(cache.account(blocksRequest(12, [10]), 0)).toEqual({ inputTokens: 100, cacheReadTokens: 0, cacheWriteTokens: 1100 });
    expect(cache.account(blocksRequest(12, [10]), 1000)).toEqual({ inputTokens: 100, cacheReadTokens: 1100, cacheWriteTokens: 0 });
  });

  it('does not cache a prefix under the minimum for the model class', () => {
    const cache = new AnthropicPromptCache();
    expect(cache.account(blocksRequest(12, [5]), 0)).toEqual({ inputTokens: 1200, cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(minCacheableTokens('claude-haiku-4-5')).toBe(2048);
    expect(cache.account(blocksRequest(15, [12], 'claude-haiku-4-5'), 0)).toMatchObject({ cacheWriteTokens: 0 });
    expect(cache.account(blocksRequest(25, [22], 'claude-haiku-4-5'), 0)).toMatchObject({ cacheWriteTokens: 2300 });
  });

  it('finds an earlier prefix within 20 blocks before a later breakpoint, and not beyond', () => {
    const cache = new AnthropicPromptCache();
    cache.account(blocksRequest(40, [10]), 0);
    // Breakpoint 29 looks back over blocks 29..10: the prefix written at 10 is read, the rest written.
    expect(cache.account(blocksRequest(40, [29]), 1)).toEqual({ inputTokens: 1000, cacheReadTokens: 1100, cacheWriteTokens: 1900 });
    const fresh = new AnthropicPromptCache();
    fresh.account(blocksRequest(40, [10]), 0);
    // Breakpoint 30 looks back over 30..11 only: block 10 is out of reach, so nothing is read.
    expect(fresh.account(blocksRequest(40, [30]), 1)).toEqual({ inputTokens: 900, cacheReadTokens: 0, cacheWriteTokens: 3100 });
  });

  it('reads the longest live prefix among several breakpoints', () => {
    const cache = new AnthropicPromptCache();
    cache.account(blocksRequest(30, [11, 20]), 0);
    expect(cache.account(blocksRequest(30, [11, 20, 25]), 1)).toEqual({ inputTokens: 400, cacheReadTokens: 2100, cacheWriteTokens: 500 });
  });

  it('expires after the TTL, and a read refreshes it', () => {
    const cache = new AnthropicPromptCache({ ttlMs: 1000 });
    cache.account(blocksRequest(12, [10]), 0);
    expect(cache.account(blocksRequest(12, [10]), 900).cacheReadTokens).toBe(1100);
    expect(cache.account(blocksRequest(12, [10]), 1800).cacheReadTokens).toBe(1100);
    expect(cache.account(blocksRequest(12, [10]), 2801)).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 1100 });
  });

  it('a change anywhere before a breakpoint misses the cache', () => {
    const cache = new AnthropicPromptCache();
    const request = blocksRequest(12, [10]);
    cache.account(request, 0);
    const changed = structuredClone(request);
    changed.messages[0]!.content[0]!.text = changed.messages[0]!.content[0]!.text.replace('b000', 'B000');
    expect(cache.account(changed, 1)).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 1100 });
  });
});

describe('OpenAI prompt-cache accounting', () => {
  const body = (chars: number, tail: string) => ({ model: 'gpt-4.1', messages: [{ role: 'system', content: 's'.repeat(chars) }, { role: 'user', content: tail }] });

  it('caches nothing under 1,024 tokens', () => {
    const cache = new OpenAIPromptCache();
    cache.account(body(3000, 'a'), 0);
    expect(cache.account(body(3000, 'b'), 1).cachedTokens).toBe(0);
  });

  it('reads the longest shared prefix in 128-token steps', () => {
    const cache = new OpenAIPromptCache();
    cache.account(body(8000, 'first'), 0);
    const second = cache.account(body(8000, 'second'), 1);
    expect(second.cachedTokens % 128).toBe(0);
    expect(second.cachedTokens).toBeGreaterThanOrEqual(1024);
    expect(second.cachedTokens).toBeLessThanOrEqual(second.promptTokens);
    expect(second.promptTokens - second.cachedTokens).toBeLessThan(128 + 10);
  });
});

describe('the server', () => {
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await startFakeLlm({ fixture: {} });
  });
  afterAll(() => fake.close());

  const anthropic = (messages: unknown[], extra: object = {}) =>
    fetch(`${fake.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 100, messages, ...extra }),
    });
  const openai = (messages: unknown[]) =>
    fetch(`${fake.openaiBaseURL}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-4.1', messages }) });
  const user = (text: string) => ({ role: 'user', content: text });

  it('picks turns by what the request contains, in fixture order, with a fallback', async () => {
    fake.setFixture({
      turns: [
        { when: { userText: 'weather' }, reply: { text: 'sunny' }, times: 0 },
        { when: { provider: 'openai' }, reply: { text: 'openai turn' } },
        { reply: { text: 'first in line' } },
      ],
      fallback: { text: 'fallback' },
    });
    const text = async (r: Response) => {
      const body = await r.json().then(asAny);
      return body.content?.[0]?.text ?? body.choices?.[0]?.message?.content;
    };
    expect(await text(await anthropic([user('what is the weather?')]))).toBe('sunny');
    expect(await text(await anthropic([user('the weather again')]))).toBe('sunny');
    expect(await text(await anthropic([user('hello')]))).toBe('first in line');
    expect(await text(await openai([user('hello')]))).toBe('openai turn');
    expect(await text(await anthropic([user('hello')]))).toBe('fallback');
  });

  it('matches on tool results', async () => {
    fake.setFixture({
      turns: [
        { when: { toolResultFor: 'toolu_9', toolResultContains: 'ENOENT' }, reply: { text: 'the file is missing' } },
        { when: { toolResultFor: 'toolu_9' }, reply: { text: 'the file is there' } },
      ],
    });
    const exchange = (result: string) => [
      user('read it'),
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_9', name: 'Read', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: result }] },
    ];
    expect((await (await anthropic(exchange('ok: 12 lines'))).json().then(asAny)).content[0].text).toBe('the file is there');
    expect((await (await anthropic(exchange('ENOENT: no such file'))).json().then(asAny)).content[0].text).toBe('the file is missing');
  });

  it('says clearly when the script has run out', async () => {
    fake.setFixture({ turns: [] });
    const response = await anthropic([user('hi')]);
    expect(response.status).toBe(500);
    expect((await response.json().then(asAny)).error.message).toMatch(/no turn left for request #\d+ and no fallback/);
  });

  it('refuses what the real APIs refuse', async () => {
    fake.setFixture({ fallback: { text: 'ok' } });
    const dangling = await anthropic([user('a'), { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'X', input: {} }] }, user('b')]);
    expect(dangling.status).toBe(400);
    expect((await dangling.json().then(asAny)).error).toMatchObject({ type: 'invalid_request_error', message: expect.stringMatching(/tool_use` ids were found without `tool_result`/) });

    const five = await anthropic([{ role: 'user', content: [1, 2, 3, 4, 5].map((i) => ({ type: 'text', text: `t${i}`, cache_control: { type: 'ephemeral' } })) }]);
    expect(five.status).toBe(400);
    expect((await five.json().then(asAny)).error.message).toBe('A maximum of 4 blocks with cache_control may be provided. Found 5.');

    const orphan = await openai([user('a'), { role: 'tool', tool_call_id: 'c1', content: 'x' }]);
    expect(orphan.status).toBe(400);
    expect((await orphan.json().then(asAny)).error.message).toMatch(/must be a response to a preceeding message with 'tool_calls'/);

    const noVersion = await fetch(`${fake.url}/v1/messages`, { method: 'POST', body: JSON.stringify({ model: 'm', max_tokens: 1, messages: [user('a')] }) });
    expect(noVersion.status).toBe(400);
  });

  it('logs every request for tests to read back, over HTTP too', async () => {
    fake.setFixture({ fallback: { text: 'ok' } });
    await fetch(`${fake.url}/_requests`, { method: 'DELETE' });
    await anthropic([user('logged')]);
    const log = await (await fetch(`${fake.url}/_requests`)).json().then(asAny);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ path: '/v1/messages', provider: 'anthropic', turn: 'fallback', status: 200, completed: true, body: { messages: [user('logged')] } });
  });

  it('takes a new fixture over HTTP', async () => {
    await fetch(`${fake.url}/_fixture`, { method: 'POST', body: JSON.stringify({ fallback: { text: 'posted fixture' } }) });
    expect((await (await anthropic([user('hi')])).json().then(asAny)).content[0].text).toBe('posted fixture');
  });

  it('holds the requests of a barrier until enough of them wait together, then lets every later one through', async () => {
    fake.setFixture({
      turns: [
        { when: { userText: 'one' }, barrier: { name: 'start', parties: 2 }, reply: { text: 'first' } },
        { when: { userText: 'two' }, barrier: { name: 'start', parties: 2 }, reply: { text: 'second' } },
        { when: { userText: 'three' }, barrier: { name: 'start', parties: 2 }, reply: { text: 'third' } },
      ],
    });
    fake.reset();
    const first = anthropic([user('one')]);
    // The first request is held: the log shows it arrived, and it has no answer yet.
    while (!fake.requests.some((r) => r.turn === 'turn 0')) await new Promise((r) => setImmediate(r));
    expect(fake.requests[0]).toMatchObject({ completed: false });
    expect(fake.requests[0]!.barrier).toBeUndefined();
    const second = anthropic([user('two')]);
    const texts = await Promise.all([first, second].map(async (r) => (await (await r).json().then(asAny)).content[0].text));
    expect(texts).toEqual(['first', 'second']);
    expect((await (await anthropic([user('three')])).json().then(asAny)).content[0].text).toBe('third');
    expect(fake.requests.map((r) => r.barrier)).toEqual(['released', 'released', 'released']);
  });

  it('fails a barrier request clearly when the others never come', async () => {
    fake.setFixture({ turns: [{ barrier: { name: 'lonely', parties: 3, timeoutMs: 50 }, reply: { text: 'never' } }] });
    fake.reset();
    const response = await anthropic([user('alone')]);
    expect(response.status).toBe(400);
    expect((await response.json().then(asAny)).error.message).toBe('fake-llm: barrier "lonely" held request #0 for 50 ms, but only 1 of 3 requests arrived together');
    expect(fake.requests[0]!.barrier).toBe('timed out');
    expect(() => checkFixture({ turns: [{ reply: {}, barrier: { name: 'b' } }] })).toThrow(/\/turns\/0\/barrier: needs "name"/);
  });

  it('rejects a fixture with a mistyped fault, naming where', () => {
    expect(() => checkFixture({ turns: [{ reply: {}, faults: [{ type: 'reset_midstream' }] }] })).toThrow(/\/turns\/0\/faults\/0: needs "status" or a "type" among/);
  });
});

describe('running on its own', () => {
  it('node test/fake-llm/server.js --fixture <file> serves both APIs', async () => {
    const fixture = join(tempDir(), 'fixture.json');
    writeFileSync(fixture, JSON.stringify({ fallback: { text: 'standalone' } }));
    const child = spawn(process.execPath, [SERVER, '--fixture', fixture, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d;
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (match) resolve(match[1]!);
        });
        child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
      });
      const reply = await fetch(`${url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) });
      expect((await reply.json().then(asAny)).choices[0].message.content).toBe('standalone');
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('answers bad arguments with the problem and the usage, exit 2, and --help with the usage, exit 0', () => {
    const run = (...args: string[]) => spawnSync(process.execPath, [SERVER, ...args], { encoding: 'utf8' });
    const bad = join(tempDir(), 'bad.json');
    writeFileSync(bad, '{"turns": 3}');
    for (const [args, problem] of [
      [['--fixtrue', 'x.json'], "Unknown option '--fixtrue'"],
      [[], '--fixture is required'],
      [['--fixture', join(tempDir(), 'missing.json')], 'no fixture file'],
      [['--fixture', bad], '/turns must be an array'],
      [['--fixture', bad.replace('bad', 'none'), '--port', 'http'], '--port must be a whole number from 0 to 65535, not "http"'],
    ] as const) {
      const result = run(...args);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(problem);
      expect(result.stderr).toContain('usage: node test/fake-llm/server.js --fixture <file.json>');
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    const help = run('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: node test\/fake-llm\/server.js --fixture/);
  });
});
