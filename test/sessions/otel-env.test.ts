// The telemetry exporter honours the standard OTEL_* variables, through the built CLI.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { isolatedEnv } from '../support/project.js';
import { scriptedProject } from './helpers.js';

const cli = (dir: string, env: NodeJS.ProcessEnv, ...args: string[]) => runCli(['--trust-project', ...args], { cwd: dir, env });

/** A local OTLP/HTTP receiver on 127.0.0.1 that keeps each request's path, headers and JSON body. */
async function collector() {
  const received: Array<{ path: string; headers: IncomingHttpHeaders; body: any }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(body) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  const close = () => new Promise((r) => server.close(r));
  open.push(close);
  return { url: `http://127.0.0.1:${port}`, received };
}

const open: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

type Attribute = { key: string; value: { stringValue?: string } };
const resourceOf = (body: any): Record<string, string | undefined> =>
  Object.fromEntries((body.resourceMetrics[0].resource.attributes as Attribute[]).map((a) => [a.key, a.value.stringValue]));
const metricNames = (body: any): string[] => body.resourceMetrics[0].scopeMetrics[0].metrics.map((m: { name: string }) => m.name);

describe('telemetry from OTEL_* variables', () => {
  it('sends to the collector, headers and resource the environment names, over the config', async () => {
    const fromEnv = await collector();
    const fromConfig = await collector();
    const dir = scriptedProject({ turns: 2 }, { telemetry: { endpoint: fromConfig.url, serviceName: 'from-config', headers: { 'x-team': 'core' } } });
    const env = isolatedEnv({
      OTEL_EXPORTER_OTLP_ENDPOINT: `${fromEnv.url}/otlp`,
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20env-token,x-tenant=acme',
      OTEL_SERVICE_NAME: 'assistant-ci',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=ci,team=platform',
    });
    expect((await cli(dir, env, '-p', 'with env telemetry')).code).toBe(0);
    expect(fromConfig.received).toEqual([]);
    expect(fromEnv.received).toHaveLength(1);
    const [post] = fromEnv.received;
    expect(post!.path).toBe('/otlp/v1/metrics');
    expect(post!.headers).toMatchObject({ authorization: 'Bearer env-token', 'x-tenant': 'acme', 'content-type': 'application/json' });
    expect(post!.headers['x-team']).toBeUndefined();
    expect(resourceOf(post!.body)).toMatchObject({ 'service.name': 'assistant-ci', 'deployment.environment': 'ci', team: 'platform', 'session.id': expect.any(String) });
    expect(metricNames(post!.body)).toContain('assistant.tool.calls');
  });

  it('uses the metrics-specific endpoint as given, and works with no telemetry config at all', async () => {
    const target = await collector();
    const dir = scriptedProject({ turns: 1 });
    const env = isolatedEnv({ OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: `${target.url}/custom/ingest`, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9/unused' });
    expect((await cli(dir, env, '-p', 'metrics endpoint')).code).toBe(0);
    expect(target.received.map((r) => r.path)).toEqual(['/custom/ingest']);
    expect(resourceOf(target.received[0]!.body)['service.name']).toBe('assistant');
  });

  it('keeps the config working, and never sends the environment header credentials to an endpoint a config file chose', async () => {
    const target = await collector();
    const dir = scriptedProject({ turns: 1 }, { telemetry: { endpoint: target.url, serviceName: 'from-config', headers: { 'x-team': 'core' } } });
    const env = isolatedEnv({ OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20secret', OTEL_EXPORTER_OTLP_METRICS_HEADERS: 'x-key=secret' });
    expect((await cli(dir, env, '-p', 'config telemetry')).code).toBe(0);
    expect(target.received).toHaveLength(1);
    expect(target.received[0]!.path).toBe('/v1/metrics');
    expect(target.received[0]!.headers['x-team']).toBe('core');
    expect(target.received[0]!.headers.authorization).toBeUndefined();
    expect(target.received[0]!.headers['x-key']).toBeUndefined();
    expect(resourceOf(target.received[0]!.body)['service.name']).toBe('from-config');
  });

  it('sends nothing when OTEL_SDK_DISABLED is true or OTEL_METRICS_EXPORTER is none', async () => {
    const target = await collector();
    const dir = scriptedProject({ turns: 1 }, { telemetry: { endpoint: target.url } });
    expect((await cli(dir, isolatedEnv({ OTEL_SDK_DISABLED: 'TRUE', OTEL_EXPORTER_OTLP_ENDPOINT: target.url }), '-p', 'off')).code).toBe(0);
    expect((await cli(dir, isolatedEnv({ OTEL_METRICS_EXPORTER: 'none' }), '-p', 'off')).code).toBe(0);
    expect(target.received).toEqual([]);
  });
});
