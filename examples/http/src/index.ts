import { definePlugin, errorResult, Stage, type JsonSchema } from '@assistant-cli/assistant';
import { fetchForModel, type HttpInput } from './fetch.js';
import { HOST_PATTERN, hostAllowed, parseUrl } from './hosts.js';

/** Options, from the `http` key of .assistantrc (or the plugin's entry in `plugins`). */
export interface HttpOptions {
  /** Hosts the model may reach: `example.com`, `*.example.com`, `127.0.0.1:8080`. Every other host is denied. */
  allowHosts?: string[];
  /** Methods allowed without asking on those hosts; others go through the normal policy (ask, or deny headless). */
  allowMethods?: string[];
  /** Bytes of a response body shown to the model; the rest is cut. */
  maxBytes?: number;
  /** Time limit of one request. */
  timeoutMs?: number;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

const optionsSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    allowHosts: { type: 'array', items: { type: 'string', pattern: HOST_PATTERN }, default: [] },
    allowMethods: { type: 'array', items: { enum: METHODS }, default: ['GET', 'HEAD'] },
    maxBytes: { type: 'integer', minimum: 1, default: 100_000 },
    timeoutMs: { type: 'integer', minimum: 100, default: 30_000 },
  },
};

const inputSchema: JsonSchema = {
  type: 'object',
  properties: {
    url: { type: 'string', description: 'Absolute http(s) URL.' },
    method: { enum: METHODS, description: 'Default GET.' },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    body: { type: 'string', description: 'Request body (POST, PUT, PATCH).' },
  },
  required: ['url'],
  additionalProperties: false,
};

/** Allows and denies in front of the project's own rules (`Stage.POLICY`): no rule or mode can open another host. */
const HOST_GUARD = Stage.POLICY - 10;
/** Allows after them, so a project `deny` or `ask` rule for Http still wins. */
const HOST_ALLOW = Stage.POLICY + 10;

/**
 * An `Http` tool with its own permission rules: requests to hosts outside `allowHosts` are denied
 * (whatever the mode or other rules say), and allowed methods on allowed hosts need no approval.
 * Runs on the main thread: a fetch is I/O the event loop waits on, not work that would stall it.
 */
export default definePlugin<HttpOptions>({
  name: 'http',
  version: '0.1.0',
  kernelApi: '^2.0.0',
  configKey: 'http',
  optionsSchema,
  apply(kernel, options) {
    const allowHosts = options.allowHosts ?? [];
    const allowMethods = new Set(options.allowMethods ?? ['GET', 'HEAD']);
    const maxBytes = options.maxBytes ?? 100_000;

    kernel.tools.register({
      name: 'Http',
      description:
        `Fetches a URL over HTTP(S) and returns the status, content type and body (text, cut at ${maxBytes} bytes). ` +
        `Only these hosts can be reached: ${allowHosts.join(', ') || 'none (set http.allowHosts in .assistantrc)'}. Redirects are reported, not followed.`,
      inputSchema,
      // It touches no project file; `@http` keeps calls ordered only against other Http writes (none).
      access: () => ({ reads: ['@http'], writes: [] }),
      risk: { category: 'network' },
      timeoutMs: options.timeoutMs ?? 30_000,
      summarize: (input: HttpInput) => `${input.method ?? 'GET'} ${input.url}`,
      async handler(input: HttpInput, context) {
        const url = parseUrl(input.url);
        if (typeof url === 'string') return errorResult('ASSISTANT_TOOL_INPUT_INVALID', url);
        return fetchForModel({ ...input, url: url.href }, context.signal, maxBytes);
      },
    });

    kernel.hooks.permission.tapPromise({ name: 'http:hosts', stage: HOST_GUARD }, async (request) => {
      if (request.tool !== 'Http') return undefined;
      const url = parseUrl(request.input.url);
      if (typeof url === 'string') return undefined; // the tool answers with the input error
      if (hostAllowed(url, allowHosts)) return undefined;
      return {
        behavior: 'deny',
        layer: 'http',
        reason: `${url.host} is not in http.allowHosts (${allowHosts.join(', ') || 'empty'}); add it to .assistantrc if the model should reach it`,
      };
    });
    kernel.hooks.permission.tapPromise({ name: 'http:methods', stage: HOST_ALLOW }, async (request) => {
      if (request.tool !== 'Http') return undefined;
      const method = String(request.input.method ?? 'GET');
      if (request.mode === 'plan' && method !== 'GET' && method !== 'HEAD')
        return { behavior: 'deny', layer: 'http', reason: `plan mode is read-only, and ${method} may change things on the server` };
      if (!allowMethods.has(method)) return undefined;
      return { behavior: 'allow', layer: 'http', reason: `${method} to an allowed host (http.allowHosts, http.allowMethods)` };
    });
  },
});
