import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AssistantError, definePlugin, errorResult, lazyImport, PluginError, textResult, type Json } from '../../core/index.js';
import { isBackend, type SearchBackend } from './backend.js';
import { WEBSEARCH_ERRORS } from './errors.js';
import type { JsonBackendOptions } from './json-backend.js';

/** The built-in JSON backend and the results' filter and format, imported when search is configured and starts. */
const search = lazyImport('tool-websearch', 'search backend', () => import('./search.js'));

/** The `webSearch` section of the configuration. */
interface WebSearchOptions extends Partial<JsonBackendOptions> {
  /** A module (absolute, or relative to the project root) exporting a backend; instead of `url`. */
  backend?: string;
  /** Results returned when the model asks for no number. */
  maxResults?: number;
  timeoutMs?: number;
}

/**
 * WebSearch, off until configured: a JSON search API (`webSearch.url`, key from the environment
 * variable `webSearch.apiKeyEnv`; no key ships with assistant) or a backend module of your own
 * (`webSearch.backend`). The whole `webSearch` key is a widening setting: a project sets it only once trusted.
 */
export default definePlugin<WebSearchOptions>({
  name: 'tool-websearch',
  version: '1.0.0',
  configKey: 'webSearch',
  errors: WEBSEARCH_ERRORS,
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      url: { type: 'string', pattern: '^https?://' },
      queryParam: { type: 'string', minLength: 1, default: 'q' },
      countParam: { type: 'string', default: 'count' },
      params: { type: 'object', additionalProperties: { type: 'string' }, default: {} },
      apiKeyEnv: { type: 'string', pattern: '^([A-Za-z_][A-Za-z0-9_]*)?$', default: '' },
      apiKeyHeader: { type: 'string', pattern: '^[A-Za-z0-9-]+$', default: 'Authorization' },
      backend: { type: 'string', minLength: 1 },
      maxResults: { type: 'integer', minimum: 1, maximum: 50, default: 8 },
      timeoutMs: { type: 'integer', minimum: 1000, maximum: 120_000, default: 20_000 },
    },
  },
  apply(kernel, options) {
    if (!options.url && !options.backend) return;
    if (options.url && options.backend)
      throw new PluginError('ASSISTANT_PLUGIN_OPTIONS_INVALID', 'webSearch: set either url (the built-in JSON backend) or backend (a module of your own), not both', { plugin: 'tool-websearch' });
    // Loaded once, at ready (a broken backend module stops the start) or at the first search.
    let loading: Promise<SearchBackend> | undefined;
    const load = () =>
      (loading ??= options.url ? search().then(({ jsonBackend }) => jsonBackend(options as JsonBackendOptions, process.env)) : loadBackend(options.backend!, kernel.projectRoot));
    kernel.hooks.ready.tapPromise('tool-websearch', async () => void (await load()));
    kernel.tools.register<{ query: string; max_results?: number; allowed_domains?: string[]; blocked_domains?: string[] }>({
      name: 'WebSearch',
      description:
        'Searches the web and returns the top results (title, URL, snippet). Use it for information past your training data or that changes (releases, docs, errors); then read a result with WebFetch. `allowed_domains` keeps only results from those domains, `blocked_domains` drops results from them.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 2, maxLength: 500, description: 'The search query.' },
          max_results: { type: 'integer', minimum: 1, maximum: 50, description: `How many results (default ${options.maxResults}).` },
          allowed_domains: { type: 'array', items: { type: 'string', minLength: 1 }, description: 'Only results from these domains (and their subdomains).' },
          blocked_domains: { type: 'array', items: { type: 'string', minLength: 1 }, description: 'No results from these domains.' },
        },
        required: ['query'],
        additionalProperties: false,
      },
      access: () => ({ reads: [], writes: [] }),
      risk: { category: 'network' },
      timeoutMs: options.timeoutMs!,
      summarize: (input) => String(input.query),
      async handler(input, context) {
        const maxResults = input.max_results ?? options.maxResults!;
        let backend: SearchBackend;
        try {
          backend = await load();
        } catch (error) {
          return errorResult(WEBSEARCH_ERRORS.ASSISTANT_WEBSEARCH_BACKEND_INVALID.code, (error as Error).message);
        }
        try {
          const { filterHits, formatHits } = await search();
          const hits = await backend.search({ query: input.query, maxResults, signal: context.signal });
          const kept = filterHits(Array.isArray(hits) ? hits : [], input.allowed_domains, input.blocked_domains).slice(0, maxResults);
          return textResult(formatHits(input.query, kept), { query: input.query, results: kept as unknown as Json });
        } catch (error) {
          if (context.signal.aborted) return errorResult('ASSISTANT_TOOL_ABORTED', `The search for "${input.query}" was cancelled.`);
          return errorResult(WEBSEARCH_ERRORS.ASSISTANT_WEBSEARCH_FAILED.code, `The search failed: ${(error as Error)?.message ?? error}`);
        }
      },
    });
  },
});

/** Imports a backend module (absolute, or relative to the project root) and checks its shape. */
async function loadBackend(path: string, projectRoot: string): Promise<SearchBackend> {
  const file = isAbsolute(path) ? path : resolve(projectRoot, path);
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (cause) {
    throw new AssistantError(WEBSEARCH_ERRORS.ASSISTANT_WEBSEARCH_BACKEND_INVALID, `webSearch.backend ${file} could not be loaded: ${(cause as Error)?.message ?? cause}`, { plugin: 'tool-websearch', cause });
  }
  const candidate = [loaded.default, loaded.backend].find(isBackend);
  if (!candidate)
    throw new AssistantError(WEBSEARCH_ERRORS.ASSISTANT_WEBSEARCH_BACKEND_INVALID, `webSearch.backend ${file} exports no backend: export default { async search({ query, maxResults, signal }) { return [{ title, url, snippet }] } }`, { plugin: 'tool-websearch' });
  return candidate;
}
