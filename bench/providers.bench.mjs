// Provider benchmarks against the fake LLM server on 127.0.0.1:
//  1. process start → first request byte at the server: the `assistant -p` CLI, and a fresh `node`
//     that boots a kernel through the public API, creates the provider and streams one request;
//  2. the latency the provider layers add per streamed event, over the raw SDK stream.
// Run: npm run bench -- providers   (or: npm run build && node bench/providers.bench.mjs)
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeLlm } from '../test/fake-llm/server.js';

const BOOT = fileURLToPath(new URL('../test/providers/fixtures/boot-provider.mjs', import.meta.url));
const START_RUNS = 15;
const STREAM_ROUNDS = 7;
const STREAM_EVENTS = 4000;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];
const env = { ...process.env };
for (const key of ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'OPENAI_API_KEY', 'OPENAI_BASE_URL']) delete env[key];

/** Spawns a booting process; resolves with the ms from spawn to the request's arrival at the server. */
async function startToFirstByte(fake, name) {
  const before = fake.requests.length;
  const url = name === 'anthropic' ? fake.anthropicBaseURL : fake.openaiBaseURL;
  const cwd = mkdtempSync(join(tmpdir(), 'assistant-bench-'));
  const spawnedAt = Date.now();
  const child = spawn(process.execPath, [BOOT, name, '--request'], { cwd, env: { ...env, FAKE_URL: url }, stdio: 'ignore' });
  const code = await new Promise((resolve) => child.on('close', resolve));
  if (code !== 0 || fake.requests.length !== before + 1) throw new Error(`boot run for ${name} failed (exit ${code})`);
  return fake.requests[before].time - spawnedAt;
}

const CLI = fileURLToPath(new URL('../dist/bin/assistant.cjs', import.meta.url));

/** `assistant -p` in an empty project with only the base URL (and a key) set: spawn → first request byte. */
async function cliToFirstByte(fake, name) {
  const before = fake.requests.length;
  const home = mkdtempSync(join(tmpdir(), 'assistant-bench-home-'));
  const cwd = mkdtempSync(join(tmpdir(), 'assistant-bench-'));
  const vars =
    name === 'anthropic'
      ? { ANTHROPIC_BASE_URL: fake.anthropicBaseURL, ANTHROPIC_API_KEY: 'bench' }
      : { OPENAI_BASE_URL: fake.openaiBaseURL, OPENAI_API_KEY: 'bench' };
  const childEnv = { ...env, ...vars, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), ASSISTANT_DATA_DIR: join(home, 'data') };
  const spawnedAt = Date.now();
  const child = spawn(process.execPath, [CLI, '-p', 'go', '--provider', name], { cwd, env: childEnv, stdio: 'ignore' });
  const code = await new Promise((resolve) => child.on('close', resolve));
  if (code !== 0 || fake.requests.length <= before) throw new Error(`assistant -p with ${name} failed (exit ${code})`);
  return fake.requests[before].time - spawnedAt;
}

/** A bare `node -e` start → request, the floor no CLI can beat. */
async function bareNodeToFirstByte(fake) {
  const before = fake.requests.length;
  const spawnedAt = Date.now();
  const script = `fetch(${JSON.stringify(fake.openaiBaseURL + '/chat/completions')}, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) }).then((r) => r.text())`;
  const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
  await new Promise((resolve) => child.on('close', resolve));
  return fake.requests[before].time - spawnedAt;
}

async function providerFor(name, url) {
  const { loadConfig } = await import('../dist/config/load.js');
  const { createKernel } = await import('../dist/core/kernel/kernel.js');
  const dir = mkdtempSync(join(tmpdir(), 'assistant-bench-'));
  writeFileSync(join(dir, '.assistantrc.json'), JSON.stringify({ provider: { name, baseURL: url } }));
  const kernel = await createKernel({ config: await loadConfig({ cwd: dir, noUserConfig: true, env }), headless: true, logLevel: 'silent' });
  return kernel.provider();
}

const request = { model: '', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }], tools: [], maxTokens: 16 };

/** Time to drain one long reply through the raw SDK, and through the provider. */
async function perEventOverhead(fake, name) {
  const url = name === 'anthropic' ? fake.anthropicBaseURL : fake.openaiBaseURL;
  const provider = await providerFor(name, url);
  let raw;
  if (name === 'anthropic') {
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    const client = new Anthropic({ baseURL: url, apiKey: 'bench', maxRetries: 0 });
    raw = async () => {
      let n = 0;
      for await (const _ of await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 16, messages: [{ role: 'user', content: 'go' }], stream: true })) n++;
      return n;
    };
  } else {
    const { default: OpenAI } = await import('openai');
    const client = new OpenAI({ baseURL: url, apiKey: 'bench', maxRetries: 0 });
    raw = async () => {
      let n = 0;
      for await (const _ of await client.chat.completions.create({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'go' }], stream: true })) n++;
      return n;
    };
  }
  const viaProvider = async () => {
    let n = 0;
    for await (const _ of provider.stream(request)) n++;
    return n;
  };
  const rawMs = [];
  const providerMs = [];
  let events = 0;
  for (let round = 0; round < STREAM_ROUNDS + 1; round++) {
    let t = performance.now();
    events = await raw();
    const r = performance.now() - t;
    t = performance.now();
    await viaProvider();
    const p = performance.now() - t;
    if (round > 0) {
      // round 0 warms up both paths
      rawMs.push(r);
      providerMs.push(p);
    }
  }
  return { events, rawMs: median(rawMs), providerMs: median(providerMs), perEventUs: ((median(providerMs) - median(rawMs)) * 1000) / events };
}

const fake = await startFakeLlm({ fixture: { fallback: { text: 'ok' } } });
try {
  const bare = [];
  for (let i = 0; i < START_RUNS; i++) bare.push(await bareNodeToFirstByte(fake));
  console.log(`bare node -e fetch: start → first request byte: median ${median(bare)} ms, p90 ${p90(bare)} ms (n=${START_RUNS})`);
  for (const name of ['anthropic', 'openai']) {
    const times = [];
    for (let i = 0; i < START_RUNS; i++) times.push(await cliToFirstByte(fake, name));
    console.log(`${name}: start → first request byte (assistant -p): median ${median(times)} ms, p90 ${p90(times)} ms (n=${START_RUNS})`);
  }
  for (const name of ['anthropic', 'openai']) {
    const times = [];
    for (let i = 0; i < START_RUNS; i++) times.push(await startToFirstByte(fake, name));
    console.log(`${name}: start → first request byte (kernel via public API): median ${median(times)} ms, p90 ${p90(times)} ms (n=${START_RUNS})`);
  }
  fake.setFixture({ fallback: { text: 'x'.repeat(STREAM_EVENTS), chunkSize: 1 } });
  for (const name of ['anthropic', 'openai']) {
    const r = await perEventOverhead(fake, name);
    console.log(
      `${name}: ${r.events} streamed events: raw SDK ${r.rawMs.toFixed(1)} ms, through the provider ${r.providerMs.toFixed(1)} ms → ${r.perEventUs.toFixed(2)} µs added per event (median of ${STREAM_ROUNDS})`,
    );
  }
} finally {
  await fake.close();
}
