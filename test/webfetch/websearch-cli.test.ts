// WebSearch through the built CLI, headless, against a real JSON search server on 127.0.0.1 (the
// user's config sets webSearch.url and the key's environment variable): the model's search reaches
// the server with the key and the query, and the model gets the results; without an allow rule a
// headless run denies it; a project's own webSearch setting waits for trust.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitProject, requestText, runHeadless, sharedFakeLlm } from '../e2e/support.js';
import { tempDir, writeFiles } from '../support/project.js';
import { startSite, type Site } from './server.js';

const fake = sharedFakeLlm();
let site: Site;
const queries: Array<{ q: string | null; key: unknown }> = [];
beforeAll(async () => {
  site = await startSite({
    '/search': (req, res) => {
      const url = new URL(req.url!, 'http://127.0.0.1');
      queries.push({ q: url.searchParams.get('q'), key: req.headers['x-api-key'] });
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({ results: [{ title: 'Parser 2.0 released', url: 'https://parser.example.org/blog/2.0', content: 'SEARCH-SNIPPET: the 2.0 release notes.' }] }),
      );
    },
  });
});
afterAll(async () => site?.close());

function script(): void {
  fake.script({
    turns: [
      { name: 'search', when: { userText: 'find the release' }, reply: { toolCalls: [{ id: 's1', name: 'WebSearch', input: { query: 'parser 2.0 release' } }] } },
      { name: 'answer', when: { toolResultFor: 's1' }, reply: { text: 'Searched.' } },
    ],
    fallback: { text: 'UNEXPECTED REQUEST' },
  });
}

/** A user config dir whose config.json holds `values`. */
function userConfig(values: unknown): Record<string, string> {
  const home = tempDir('assistant-websearch-home-');
  writeFiles(home, { 'config/config.json': JSON.stringify(values) });
  return { ASSISTANT_CONFIG_DIR: join(home, 'config'), TEST_SEARCH_KEY: 'search-key' };
}

const webSearch = () => ({ url: `${site.base}/search`, apiKeyEnv: 'TEST_SEARCH_KEY', apiKeyHeader: 'X-Api-Key', params: { format: 'json' } });

describe('assistant -p with WebSearch', () => {
  it('searches the configured server with the key and hands the model the results', async () => {
    script();
    queries.length = 0;
    const r = await runHeadless(fake.server, gitProject({}), ['find the release'], { env: userConfig({ webSearch: webSearch(), permissions: { allow: ['WebSearch'] } }) });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('Searched.\n');
    expect(r.code).toBe(0);
    expect(queries).toEqual([{ q: 'parser 2.0 release', key: 'search-key' }]);
    expect(requestText(fake.server.requests.find((q) => q.turn === 'search')!)).toContain('"name":"WebSearch"');
    const sent = requestText(fake.server.requests.find((q) => q.turn === 'answer')!);
    expect(sent).toContain('Parser 2.0 released');
    expect(sent).toContain('https://parser.example.org/blog/2.0');
    expect(sent).toContain('SEARCH-SNIPPET');
  });

  it('denies the search headless without an allow rule, and ignores an untrusted project that configures it', async () => {
    script();
    queries.length = 0;
    let r = await runHeadless(fake.server, gitProject({}), ['find the release'], { env: userConfig({ webSearch: webSearch() }) });
    expect(r.stdout).toBe('Searched.\n');
    expect(r.stderr).toContain('denied: WebSearch');
    expect(queries).toEqual([]);

    script();
    const project = gitProject({ '.assistantrc.json': JSON.stringify({ webSearch: webSearch(), permissions: { allow: ['WebSearch'] } }) });
    r = await runHeadless(fake.server, project, ['find the release'], { env: { TEST_SEARCH_KEY: 'search-key' } });
    expect(queries).toEqual([]);
    const tools = requestText(fake.server.requests.find((q) => q.turn === 'search')!);
    expect(tools).not.toContain('"name":"WebSearch"');
  });
});
