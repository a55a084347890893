// WebSearch is off until configured, and then speaks a JSON search API (Brave- and SearXNG-shaped
// answers from a real server on 127.0.0.1) with the key from the environment, or a backend module.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kernel, ToolResultPart } from '../../dist/core/index.js';
import { makeProject } from '../support/project.js';
import { kernelFor, runOne, text } from '../tools/helpers.js';
import { startSite, type Site } from './server.js';

let site: Site;
const seen: Array<{ url: string; headers: Record<string, unknown> }> = [];
const kernels: Kernel[] = [];

beforeAll(async () => {
  site = await startSite({
    '/brave': (req, res) => {
      seen.push({ url: req.url!, headers: req.headers });
      if (req.headers['x-subscription-token'] !== 'brave-key') return res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"bad key"}');
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          web: {
            results: [
              { title: 'Node <strong>22</strong> released', url: 'https://nodejs.org/en/blog/release/v22.0.0', description: 'Node 22 is <b>out</b>.' },
              { title: 'Node on a mirror', url: 'https://mirror.example.net/node22', description: 'A copy.' },
              { title: 'No URL', description: 'skipped' },
            ],
          },
        }),
      );
    },
    '/searx': (req, res) => {
      seen.push({ url: req.url!, headers: req.headers });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results: [{ title: 'SearXNG hit', url: 'https://docs.example.org/a', content: 'From searx.' }] }));
    },
    '/broken': (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>not json</html>'),
  });
});

afterAll(async () => {
  for (const kernel of kernels.splice(0)) await kernel.shutdown();
  await site?.close();
});

async function kernelWith(webSearch: Record<string, unknown> | undefined, root = makeProject({})): Promise<Kernel> {
  const { kernel } = await kernelFor(root, undefined, { config: (webSearch ? { webSearch } : {}) as never });
  kernels.push(kernel);
  return kernel;
}
const codeOf = (result: ToolResultPart) => (result.metadata as { code?: string } | undefined)?.code;

describe('WebSearch', () => {
  it('is not offered until a backend is configured', async () => {
    expect((await kernelWith(undefined)).tools.get('WebSearch')).toBeUndefined();
  });

  it('queries a Brave-style API with the key from the environment and lists the results', async () => {
    process.env.TEST_BRAVE_KEY = 'brave-key';
    const kernel = await kernelWith({ url: `${site.base}/brave`, apiKeyEnv: 'TEST_BRAVE_KEY', apiKeyHeader: 'X-Subscription-Token' });
    expect(kernel.tools.get('WebSearch')!.risk.category).toBe('network');
    const result = await runOne(kernel, 'WebSearch', { query: 'node 22 release', max_results: 5 });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe(
      'Results for "node 22 release":\n\n1. Node 22 released\n   https://nodejs.org/en/blog/release/v22.0.0\n   Node 22 is out.\n\n2. Node on a mirror\n   https://mirror.example.net/node22\n   A copy.\n\nFetch a result with WebFetch to read it.',
    );
    const request = seen[seen.length - 1]!;
    expect(new URL(request.url, site.base).searchParams.get('q')).toBe('node 22 release');
    expect(new URL(request.url, site.base).searchParams.get('count')).toBe('5');
    // Domain filters.
    const only = await runOne(kernel, 'WebSearch', { query: 'node', allowed_domains: ['nodejs.org'] });
    expect(text(only)).not.toContain('mirror.example.net');
    const blocked = await runOne(kernel, 'WebSearch', { query: 'node', blocked_domains: ['nodejs.org'] });
    expect(text(blocked)).not.toContain('nodejs.org');
    expect(text(blocked)).toContain('mirror.example.net');
  });

  it('fails with a coded error when the key is missing or refused, or the answer is not a result list', async () => {
    delete process.env.TEST_MISSING_KEY;
    const missing = await runOne(await kernelWith({ url: `${site.base}/brave`, apiKeyEnv: 'TEST_MISSING_KEY' }), 'WebSearch', { query: 'x y' });
    expect(codeOf(missing)).toBe('ASSISTANT_WEBSEARCH_FAILED');
    expect(text(missing)).toContain('TEST_MISSING_KEY (webSearch.apiKeyEnv) holds no API key');
    process.env.TEST_WRONG_KEY = 'wrong';
    const refused = await runOne(await kernelWith({ url: `${site.base}/brave`, apiKeyEnv: 'TEST_WRONG_KEY', apiKeyHeader: 'X-Subscription-Token' }), 'WebSearch', { query: 'x y' });
    expect(text(refused)).toMatch(/answered 401/);
    const broken = await runOne(await kernelWith({ url: `${site.base}/broken` }), 'WebSearch', { query: 'x y' });
    expect(text(broken)).toMatch(/not JSON/);
  });

  it('speaks SearXNG with fixed parameters and no key', async () => {
    const kernel = await kernelWith({ url: `${site.base}/searx`, params: { format: 'json' }, countParam: '' });
    expect(text(await runOne(kernel, 'WebSearch', { query: 'searx query' }))).toContain('1. SearXNG hit\n   https://docs.example.org/a\n   From searx.');
    const params = new URL(seen[seen.length - 1]!.url, site.base).searchParams;
    expect(params.get('format')).toBe('json');
    expect(params.has('count')).toBe(false);
    expect(seen[seen.length - 1]!.headers.authorization).toBeUndefined();
  });

  it('uses a backend module of your own', async () => {
    const root = makeProject({});
    writeFileSync(join(root, 'search.mjs'), `export default { async search({ query, maxResults }) { return [{ title: 'Own ' + query, url: 'https://own.example/' + maxResults, snippet: 'mine' }]; } };`);
    const kernel = await kernelWith({ backend: './search.mjs', maxResults: 3 }, root);
    expect(text(await runOne(kernel, 'WebSearch', { query: 'anything' }))).toContain('1. Own anything\n   https://own.example/3\n   mine');
    const bad = makeProject({ 'nothing.mjs': 'export const x = 1;' });
    const refused = await runOne(await kernelWith({ backend: './nothing.mjs' }, bad), 'WebSearch', { query: 'anything' });
    expect(codeOf(refused)).toBe('ASSISTANT_WEBSEARCH_BACKEND_INVALID');
    expect(text(refused)).toContain('exports no backend');
  });
});
