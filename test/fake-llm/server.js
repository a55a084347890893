#!/usr/bin/env node
// A wire-compatible fake LLM server: Anthropic /v1/messages and OpenAI /v1/chat/completions on
// 127.0.0.1, scripted by a fixture (see README.md). Runs in-process (startFakeLlm) or on its own:
//   node test/fake-llm/server.js --fixture <file> [--port N]
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import * as anthropic from './anthropic.js';
import * as openai from './openai.js';
import { BARRIER_TIMEOUT_MS, Barriers } from './barrier.js';
import { readFixture, replyContent, Script } from './script.js';

/**
 * One request as the server saw it, for tests to read back.
 * @typedef {{ index: number, time: number, method: string, path: string, provider?: 'anthropic' | 'openai',
 *   headers: Record<string, string | string[] | undefined>, body: any, turn?: string, fault?: string, status?: number,
 *   usage?: any, stream?: boolean, completed: boolean, clientClosedEarly: boolean, closedAfterMs?: number,
 *   barrier?: import('./barrier.js').BarrierOutcome }} RequestRecord
 */

/**
 * @typedef {{ url: string, port: number, anthropicBaseURL: string, openaiBaseURL: string, requests: RequestRecord[],
 *   setFixture(fixture: import('./script.js').Fixture | string): void, reset(): void, close(): Promise<void> }} FakeLlm
 */

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts the server. `fixture` is an object or a path to a JSON file.
 * @param {{ fixture: import('./script.js').Fixture | string, port?: number, host?: string, quiet?: boolean }} options
 * @returns {Promise<FakeLlm>}
 */
export async function startFakeLlm(options) {
  const load = (/** @type {import('./script.js').Fixture | string} */ f) => (typeof f === 'string' ? readFixture(f) : f);
  /** @type {{ script: Script, fixture: import('./script.js').Fixture, anthropicCache: any, openaiCache: any, redacted: Set<string>, barriers: Barriers }} */
  let state;
  const setFixture = (/** @type {import('./script.js').Fixture | string} */ f) => {
    const fixture = load(f);
    state = {
      script: new Script(fixture),
      fixture,
      anthropicCache: anthropic.cacheFor(fixture.cache),
      openaiCache: openai.cacheFor(fixture.cache),
      redacted: new Set(),
      barriers: new Barriers(),
    };
  };
  setFixture(options.fixture);
  /** @type {RequestRecord[]} */
  const requests = [];
  const sockets = new Set();

  const server = createServer(async (req, res) => {
    try {
      await handle(req, res);
    } catch (error) {
      if (!res.headersSent) json(res, 500, { error: { message: `fake-llm bug: ${/** @type {Error} */ (error).stack}` } });
      else res.destroy();
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  /** @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res */
  async function handle(req, res) {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/_requests' && req.method === 'GET') return json(res, 200, requests);
    if (path === '/_requests' && req.method === 'DELETE') {
      requests.length = 0;
      return json(res, 200, { ok: true });
    }
    if (path === '/_fixture' && req.method === 'POST') {
      setFixture(JSON.parse(await readBody(req)));
      return json(res, 200, { ok: true });
    }
    if (path === '/_health') return json(res, 200, { ok: true });
    if (path === '/v1/models' && req.method === 'GET')
      return json(res, 200, { object: 'list', data: (state.fixture.models ?? []).map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake-llm' })) });

    const wire = path === '/v1/messages' || path === '/v1/messages/count_tokens' ? anthropic : path === '/v1/chat/completions' ? openai : undefined;
    const started = Date.now();
    /** @type {RequestRecord} */
    const record = { index: requests.length, time: started, method: req.method ?? 'GET', path, headers: { ...req.headers }, body: undefined, completed: false, clientClosedEarly: false };
    requests.push(record);
    res.on('close', () => {
      if (!res.writableFinished) {
        record.clientClosedEarly = true;
        record.closedAfterMs = Date.now() - started;
      }
    });
    if (!wire || req.method !== 'POST') return json(res, 404, { error: { message: `fake-llm: no route ${req.method} ${path}` } });
    record.provider = wire === anthropic ? 'anthropic' : 'openai';
    const text = await readBody(req);
    try {
      record.body = JSON.parse(text);
    } catch {
      return fail(res, record, wire, 400, 'The request body is not valid JSON.');
    }
    const body = record.body;
    record.stream = body.stream === true;
    const invalid = wire === anthropic ? anthropic.validate(body, req.headers, state.fixture, state.redacted) : openai.validate(body, req.headers, state.fixture);
    if (invalid) return fail(res, record, wire, invalid.status, invalid.message);
    if (path === '/v1/messages/count_tokens') {
      record.completed = true;
      record.status = 200;
      return json(res, 200, { input_tokens: anthropic.countInputTokens(body) });
    }

    const picked = state.script.pick(wire.normalize(body));
    record.turn = picked.label;
    const barrier = picked.turn?.spec.barrier;
    if (barrier) {
      const waiting = state.barriers;
      record.barrier = await waiting.wait(barrier, res);
      if (record.barrier === 'gone') return;
      if (record.barrier === 'timed out')
        return fail(res, record, wire, 400, `fake-llm: barrier "${barrier.name}" held request #${record.index} for ${barrier.timeoutMs ?? BARRIER_TIMEOUT_MS} ms, but only ${waiting.waiting(barrier.name) + 1} of ${barrier.parties} requests arrived together`);
    }
    const fault = picked.fault;
    if (fault) record.fault = 'status' in fault ? `status ${fault.status}` : fault.type;
    if (fault && 'status' in fault) {
      /** @type {Record<string, string>} */
      const headers = {};
      if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
      if (fault.retryAfterMs !== undefined) headers['retry-after-ms'] = String(fault.retryAfterMs);
      return fail(res, record, wire, fault.status, fault.message ?? defaultMessage(fault.status), headers, fault.errorType);
    }
    if (fault?.type === 'reset_before_headers') return req.socket.destroy();
    if (fault?.type === 'slow_first_byte') {
      await sleep(fault.delayMs);
      if (res.destroyed || record.clientClosedEarly) return;
    }
    if (!picked.reply) return fail(res, record, wire, 500, `fake-llm: the fixture has no turn left for request #${record.index} and no fallback`);

    const reply = picked.reply;
    const chunkSize = reply.chunkSize ?? state.fixture.chunkSize ?? 8;
    const eventDelayMs = reply.eventDelayMs ?? state.fixture.eventDelayMs ?? 0;
    const content = replyContent(reply, `${record.provider === 'anthropic' ? 'toolu' : 'call'}_${picked.turn ? picked.turn.index : 'fb'}`);
    const truncateAt = fault?.type === 'truncate_tool_input' ? (fault.keepChars ?? -1) : undefined;
    const streamFault = fault && ['stall_after_headers', 'reset_mid_stream', 'malformed_sse', 'error_event'].includes(fault.type) ? fault : undefined;
    const answered = () => {
      record.completed = true;
      // A reply cut short by a fault leaves its turn to answer the retry.
      if (picked.turn && (!fault || fault.type === 'slow_first_byte')) picked.turn.answered++;
    };

    let events;
    let frame;
    let done = '';
    if (wire === anthropic) {
      const blocks = anthropic.contentBlocks(content, state.redacted);
      const cache = state.anthropicCache.account(body);
      const cut = truncateAt === undefined ? undefined : truncateAt < 0 ? Math.floor(lastToolJson(blocks).length / 2) : truncateAt;
      const base = { model: body.model, blocks, cache, stopReason: reply.stopReason, outputTokens: reply.outputTokens };
      record.usage = cache;
      if (!body.stream) return respondWhole(res, record, anthropic.responseBody(truncatedWhole(base, cut)), streamFault, answered);
      events = anthropic.streamEvents({ ...base, chunkSize, truncateAt: cut });
      frame = anthropic.sseFrame;
    } else {
      const { promptTokens, cachedTokens } = state.openaiCache.account(body);
      const cut = truncateAt === undefined ? undefined : truncateAt < 0 ? Math.floor(lastCallJson(content).length / 2) : truncateAt;
      const base = { model: body.model, content, promptTokens, cachedTokens, stopReason: reply.stopReason, outputTokens: reply.outputTokens, chunkSize, truncateAt: cut };
      record.usage = { promptTokens, cachedTokens };
      if (!body.stream) return respondWhole(res, record, openai.responseBody({ ...base, includeUsage: true }), streamFault, answered);
      events = openai.streamEvents({ ...base, includeUsage: body.stream_options?.include_usage === true });
      frame = openai.sseFrame;
      done = openai.DONE_FRAME;
    }
    await respondStream(res, record, { events, frame, done, eventDelayMs, fault: streamFault, wire }, answered);
  }

  /** @param {import('node:http').ServerResponse} res @param {RequestRecord} record @param {any} body @param {any} fault @param {() => void} answered */
  function respondWhole(res, record, body, fault, answered) {
    record.status = 200;
    if (!fault) {
      json(res, 200, body);
      return answered();
    }
    const text = JSON.stringify(body);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
    if (fault.type === 'stall_after_headers') return res.flushHeaders();
    if (fault.type === 'malformed_sse') return res.end(text.slice(0, Math.floor(text.length / 2)) + '<garbage');
    res.write(text.slice(0, Math.floor(text.length / 2)));
    setTimeout(() => res.destroy(), 5);
  }

  /**
   * Writes SSE events one by one, applying a mid-stream fault at its event index.
   * @param {import('node:http').ServerResponse} res @param {RequestRecord} record
   * @param {{ events: any[], frame: (e: any) => string, done: string, eventDelayMs: number, fault?: any, wire: typeof anthropic | typeof openai }} stream
   * @param {() => void} answered
   */
  async function respondStream(res, record, stream, answered) {
    record.status = 200;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'request-id': `req_fake_${record.index}` });
    res.flushHeaders();
    const { fault } = stream;
    const cutAt = fault ? (fault.afterEvents ?? (fault.type === 'stall_after_headers' ? 0 : 2)) : Infinity;
    for (let i = 0; i < stream.events.length; i++) {
      if (res.destroyed) return;
      if (i === cutAt) {
        if (fault.type === 'stall_after_headers') return; // hold the socket until the client gives up or the server closes
        if (fault.type === 'reset_mid_stream') {
          // Let the client read what was sent, so the cut falls exactly after `afterEvents` events.
          await sleep(20);
          return void res.socket?.destroy();
        }
        if (fault.type === 'malformed_sse') return void res.end(`event: content_block_delta\ndata: {"type": "content_block_delta", "index": 0, "delta": {"type": "text_del\n\n`);
        if (fault.type === 'error_event') {
          const type = fault.errorType ?? (stream.wire === anthropic ? 'overloaded_error' : 'server_error');
          res.write(stream.frame(stream.wire.errorEvent(type, fault.message ?? 'Overloaded')));
          return void res.end();
        }
      }
      await new Promise((resolve) => res.write(stream.frame(stream.events[i]), resolve));
      if (stream.eventDelayMs) await sleep(stream.eventDelayMs);
    }
    if (fault?.type === 'stall_after_headers') return;
    res.end(stream.done);
    answered();
  }

  /**
   * @param {import('node:http').ServerResponse} res @param {RequestRecord} record @param {typeof anthropic | typeof openai} wire
   * @param {number} status @param {string} message @param {Record<string, string>} [headers] @param {string} [type]
   */
  function fail(res, record, wire, status, message, headers = {}, type) {
    record.status = status;
    record.completed = true;
    json(res, status, wire.errorBody(status, message, type), headers);
  }

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve(undefined));
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  const url = `http://${options.host ?? '127.0.0.1'}:${address.port}`;
  return {
    url,
    port: address.port,
    anthropicBaseURL: url,
    openaiBaseURL: `${url}/v1`,
    requests,
    setFixture,
    reset() {
      requests.length = 0;
      setFixture(state.fixture);
    },
    close() {
      for (const socket of sockets) /** @type {import('node:net').Socket} */ (socket).destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** @param {number} status */
function defaultMessage(status) {
  return { 401: 'invalid x-api-key', 403: 'permission denied', 429: 'Rate limited', 500: 'Internal server error', 503: 'Service unavailable', 529: 'Overloaded' }[status] ?? `error ${status}`;
}

/** @param {any[]} blocks */
function lastToolJson(blocks) {
  const tools = blocks.filter((b) => b.type === 'tool_use');
  return JSON.stringify(tools[tools.length - 1]?.input ?? {});
}

/** @param {any[]} content */
function lastCallJson(content) {
  const calls = content.filter((b) => b.type === 'tool_call');
  return JSON.stringify(calls[calls.length - 1]?.input ?? {});
}

/** A non-streamed Anthropic reply cut inside its last tool call: the API ends it at max_tokens with the input that fit. @param {any} base @param {number | undefined} cut */
function truncatedWhole(base, cut) {
  if (cut === undefined) return base;
  const blocks = structuredClone(base.blocks);
  const last = blocks.filter((b) => b.type === 'tool_use').pop();
  if (!last) return base;
  const keys = Object.keys(last.input);
  last.input = Object.fromEntries(keys.slice(0, Math.max(0, keys.length - 1)).map((k) => [k, last.input[k]]));
  return { ...base, blocks, stopReason: 'max_tokens' };
}

/** @param {import('node:http').IncomingMessage} req @returns {Promise<string>} */
function readBody(req) {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

/** @param {import('node:http').ServerResponse} res @param {number} status @param {unknown} body @param {Record<string, string>} [headers] */
function json(res, status, body, headers = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), 'request-id': 'req_fake', ...headers });
  res.end(text);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { fixture: { type: 'string' }, port: { type: 'string', default: '0' }, host: { type: 'string', default: '127.0.0.1' } } });
  if (!values.fixture) {
    process.stderr.write('usage: node test/fake-llm/server.js --fixture <file.json> [--port N] [--host 127.0.0.1]\n');
    process.exit(2);
  }
  const fake = await startFakeLlm({ fixture: values.fixture, port: Number(values.port), host: values.host });
  process.stdout.write(`fake-llm listening on ${fake.url}\n  ANTHROPIC_BASE_URL=${fake.anthropicBaseURL}\n  OPENAI_BASE_URL=${fake.openaiBaseURL}\n  requests: GET ${fake.url}/_requests\n`);
  const stop = () => fake.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
