import { readFileSync } from 'node:fs';
import { definePlugin, type Json } from '../../core/index.js';
import { WEBFETCH_ERRORS } from './errors.js';
import { privateAddressLayer } from './private-address.js';
import { webFetchAllowance } from './url.js';
import type { WebFetchTaskOptions } from './webfetch.worker.js';

/** The `webFetch` section of the configuration. */
export interface WebFetchOptions {
  /** Most bytes downloaded (after decompression); the rest of a longer answer is not read. */
  maxBytes?: number;
  /** Most characters of the page returned to the model. */
  maxChars?: number;
  /** Time limit of one call, redirects included. */
  timeoutMs?: number;
  /** Most redirects followed within a host. */
  maxRedirects?: number;
  userAgent?: string;
}

const VERSION = '1.0.0';

/**
 * WebFetch: reads a URL for the model (HTML as markdown, text and JSON as they are). It runs in the
 * worker pool, outside the Bash sandbox by design; its reach is the permission engine's
 * `WebFetch(domain:…)` rules plus its own layer for hosts on private addresses.
 */
export default definePlugin<WebFetchOptions>({
  name: 'tool-webfetch',
  version: VERSION,
  configKey: 'webFetch',
  errors: WEBFETCH_ERRORS,
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      maxBytes: { type: 'integer', minimum: 1024, maximum: 100 * 1024 * 1024, default: 5 * 1024 * 1024 },
      maxChars: { type: 'integer', minimum: 1000, maximum: 2_000_000, default: 50_000 },
      timeoutMs: { type: 'integer', minimum: 1000, maximum: 600_000, default: 60_000 },
      maxRedirects: { type: 'integer', minimum: 0, maximum: 20, default: 5 },
      userAgent: { type: 'string', minLength: 1, maxLength: 200, default: `assistant-webfetch/${VERSION}` },
    },
  },
  apply(kernel, options) {
    const allowance = webFetchAllowance((kernel.config.permissions as { allow?: unknown[] } | undefined)?.allow);
    const lookupTimeoutMs = 10_000;
    const privateLayer = privateAddressLayer('WebFetch', { allowance, lookupTimeoutMs });
    kernel.hooks.permission.tapPromise({ name: 'tool-webfetch:private-address', stage: privateLayer.stage }, privateLayer.layer);
    const taskOptions = (): WebFetchTaskOptions => ({
      maxBytes: options.maxBytes!,
      maxChars: options.maxChars!,
      maxRedirects: options.maxRedirects!,
      userAgent: options.userAgent!,
      lookupTimeoutMs,
      explicitHosts: allowance.domains,
    });
    kernel.tools.register<{ url: string; prompt?: string }>({
      name: 'WebFetch',
      description: readFileSync(new URL('./webfetch.txt', import.meta.url), 'utf8').trim(),
      inputSchema: {
        type: 'object',
        properties: {
          url: { type: 'string', minLength: 1, maxLength: 8192, description: 'The http or https URL to fetch.' },
          prompt: { type: 'string', maxLength: 2000, description: 'What to look for in the page (optional).' },
        },
        required: ['url'],
        additionalProperties: false,
      },
      // Nothing on this machine is read or written: fetches run beside everything else.
      access: () => ({ reads: [], writes: [] }),
      risk: { category: 'network' },
      timeoutMs: options.timeoutMs!,
      summarize: (input) => String(input.url),
      module: new URL('./webfetch.worker.js', import.meta.url).href,
      options: taskOptions() as unknown as { [key: string]: Json },
      prepare: (input, context) => {
        const pin = privateLayer.take(context.callId, context.agentId, input.url);
        const state: { [key: string]: Json } = pin ? { pin: pin as unknown as Json } : {};
        return { state };
      },
    });
  },
});
