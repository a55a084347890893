import { createServer, type IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createRunner, openSession } from '../../dist/core/kits/agent/index.js';
import { runCli } from '../support/cli.js';
import { isolatedEnv, tempDir } from '../support/project.js';
import { kernelFor, scriptedProject } from './helpers.js';

// The scripted test project loads its own provider plugin: the user trusts it.
const cli = (dir: string, env: NodeJS.ProcessEnv, ...args: string[]) => runCli(['--trust-project', ...args], { cwd: dir, env });
const latestId = async (dir: string, env: NodeJS.ProcessEnv) => JSON.parse((await cli(dir, env, 'sessions', 'list', '--json')).stdout)[0].id as string;

/** A local OTLP/HTTP endpoint on 127.0.0.1 that keeps what it receives. */
async function otlpCollector() {
  const received: Array<{ path: string; type: string; body: any }> = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', type: req.headers['content-type'] ?? '', body: JSON.parse(body) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, received, close: () => new Promise((r) => server.close(r)) };
}

describe('audit log and metrics', () => {
  it('logs every tool call with its decision, duration and outcome beside the session', async () => {
    const dir = scriptedProject({ turns: 4, deny: [2], failNote: 1 });
    const env = isolatedEnv();
    expect((await cli(dir, env, '-p', 'audit me')).code).toBe(0);
    const id = await latestId(dir, env);
    const records = (await cli(dir, env, 'sessions', 'audit', id.slice(0, 8), '--json')).stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(records.map((r) => [r.tool, r.callId, r.decision.behavior, r.decision.layer, r.outcome])).toEqual([
      ['Note', 'call_8_1', 'allow', 'scripted', 'error'],
      ['Note', 'call_8_2', 'deny', 'scripted', 'denied'],
      ['Note', 'call_8_3', 'allow', 'scripted', 'ok'],
    ]);
    expect(records[0]).toMatchObject({ sessionId: id, summary: 'note 1', input: { n: 1, text: 'audit me' }, error: 'note 1 failed' });
    expect(records[0].durationMs).toBeGreaterThanOrEqual(0);
    expect(records[1].durationMs).toBeUndefined();
    const table = (await cli(dir, env, 'sessions', 'audit', id)).stdout.trim().split('\n');
    expect(table).toHaveLength(3);
    expect(table[1]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} {2}Note {8}deny \(scripted\) +denied/);
  });

  it('counts tool calls, latency, tokens, cache hits and denials; /stats shows them and the session keeps them', async () => {
    const dir = scriptedProject({ turns: 3, deny: [2] });
    const kernel = await kernelFor(dir, tempDir());
    kernel.hooks.commands.call(kernel.commands);
    await kernel.start();
    const session = await openSession(kernel, { projectRoot: dir, mode: 'default', provider: 'scripted', model: 'scripted-1' });
    kernel.session = session;
    const result = await createRunner(kernel, session).run('measure');
    expect(result.reason).toBe('completed');

    const snapshot = kernel.metrics.snapshot();
    const counter = (name: string, labels: Record<string, string>) => snapshot.counters.find((c) => c.name === name && JSON.stringify(c.labels) === JSON.stringify(labels))?.value;
    expect(counter('tool.calls', { tool: 'Note', status: 'ok' })).toBe(1);
    expect(counter('tool.calls', { tool: 'Note', status: 'denied' })).toBe(1);
    expect(counter('permission.decisions', { behavior: 'deny', layer: 'scripted' })).toBe(1);
    expect(counter('model.requests', { provider: 'scripted', cache: 'miss' })).toBe(1);
    expect(counter('model.requests', { provider: 'scripted', cache: 'hit' })).toBe(2);
    expect(counter('model.tokens', { provider: 'scripted', kind: 'input' })).toBe(100 + 101 + 102);
    expect(counter('model.tokens', { provider: 'scripted', kind: 'output' })).toBe(30);
    const latency = snapshot.histograms.find((h) => h.name === 'model.latency')!;
    expect(latency).toMatchObject({ labels: { provider: 'scripted' }, count: 3 });
    expect(snapshot.histograms.find((h) => h.name === 'model.ttft')!.count).toBe(3);
    expect(snapshot.histograms.find((h) => h.name === 'tool.duration')).toMatchObject({ labels: { tool: 'Note' }, count: 1 });

    const stats = String(await kernel.commands.slash('stats')!.run('', { print: () => undefined }));
    expect(stats).toContain('tool.calls: 2\n  tool=Note,status=ok: 1\n  tool=Note,status=denied: 1');
    expect(stats).toMatch(/model\.latency:\n {2}provider=scripted: n=3 p50=[\d.]+ms p95=[\d.]+ms max=[\d.]+ms/);

    await kernel.shutdown();
    const saved = await (await kernelFor(dir, (kernel.config.persistence as { jsonl: { dir: string } }).jsonl.dir)).store().readRecords(session.info.id, 'metrics');
    const last = saved.at(-1) as unknown as { metrics: typeof snapshot };
    expect(last.metrics.counters).toEqual(expect.arrayContaining([{ name: 'tool.calls', labels: { tool: 'Note', status: 'ok' }, value: 1 }]));
  });

  it('sessions show adds up the metrics of every run of a resumed session', async () => {
    const dir = scriptedProject({ turns: 2 });
    const env = isolatedEnv();
    await cli(dir, env, '-p', 'one');
    await cli(dir, env, '--continue', '-p', 'two');
    const shown = JSON.parse((await cli(dir, env, 'sessions', 'show', await latestId(dir, env), '--json')).stdout);
    expect(shown.metrics.counters).toEqual(expect.arrayContaining([{ name: 'tool.calls', labels: { tool: 'Note', status: 'ok' }, value: 2 }]));
  });

  it('exports metrics over OTLP/HTTP JSON only when an endpoint is configured', async () => {
    const collector = await otlpCollector();
    try {
      const env = isolatedEnv();
      const quiet = scriptedProject({ turns: 2 });
      expect((await cli(quiet, env, '-p', 'no telemetry')).code).toBe(0);
      expect(collector.received).toEqual([]);

      const dir = scriptedProject({ turns: 3 }, { telemetry: { endpoint: collector.url, intervalMs: 60_000, headers: { 'x-team': 'core' } } });
      expect((await cli(dir, env, '-p', 'with telemetry')).code).toBe(0);
      expect(collector.received).toHaveLength(1);
      const [post] = collector.received;
      expect(post!.path).toBe('/v1/metrics');
      expect(post!.type).toBe('application/json');
      const resource = post!.body.resourceMetrics[0];
      expect(resource.resource.attributes).toEqual(expect.arrayContaining([{ key: 'service.name', value: { stringValue: 'assistant' } }]));
      const metrics = resource.scopeMetrics[0].metrics as Array<any>;
      const calls = metrics.find((m) => m.name === 'assistant.tool.calls');
      expect(calls.sum).toMatchObject({ aggregationTemporality: 2, isMonotonic: true });
      expect(calls.sum.dataPoints).toEqual([
        expect.objectContaining({ attributes: [{ key: 'tool', value: { stringValue: 'Note' } }, { key: 'status', value: { stringValue: 'ok' } }] }),
      ]);
      // OTLP/JSON allows an int64 as a number or a string.
      expect(Number(calls.sum.dataPoints[0].asInt)).toBe(2);
      const latency = metrics.find((m) => m.name === 'assistant.model.latency');
      expect(latency.unit).toBe('ms');
      const point = latency.histogram.dataPoints[0];
      expect(Number(point.count)).toBe(3);
      expect(point.bucketCounts).toHaveLength(point.explicitBounds.length + 1);
      expect(point.bucketCounts.map(Number).reduce((a: number, b: number) => a + b, 0)).toBe(3);
      expect(BigInt(point.timeUnixNano) >= BigInt(point.startTimeUnixNano)).toBe(true);
    } finally {
      await collector.close();
    }
  });
});
