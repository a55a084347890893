// A wire-compatible fake LLM server: Anthropic /v1/messages and OpenAI /v1/chat/completions on
// 127.0.0.1, scripted by a fixture (see docs/fake-llm.md). Runs in-process (startFakeLlm) or on its
// own (runFakeLlmCli, in cli.ts).
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import * as anthropic from './anthropic.js';
import * as openai from './openai.js';
import type { AnthropicPromptCache, OpenAIPromptCache, WireBody } from './prompt-cache.js';
import { BARRIER_TIMEOUT_MS, Barriers, type BarrierOutcome } from './barrier.js';
import { readFixture, replyContent, Script, type ContentSpec, type FaultSpec, type Fixture } from './script.js';
import type { SseEvent } from './wire.js';

/** One request as the fake server saw it, for tests to read back. */
export interface FakeLlmRequest {
  /** Position in the log, from 0. */
  index: number;
  /** When it arrived (ms since the epoch). */
  time: number;
  /** HTTP method. */
  method: string;
  /** URL path without the query. */
  path: string;
  /** The wire format, for the model endpoints. */
  provider?: 'anthropic' | 'openai';
  /** Request headers as received. */
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (the provider's own request format). */
  body: WireBody;
  /** The label of the turn that answered (its `name`, `turn N`, `fallback` or `none`). */
  turn?: string;
  /** The fault injected into this request, if any (`status 429`, `reset_mid_stream`, ...). */
  fault?: string;
  /** The HTTP status answered. */
  status?: number;
  /** Token usage reported (Anthropic: cache split; OpenAI: prompt and cached tokens). */
  usage?: WireBody;
  /** Whether the request asked for a stream. */
  stream?: boolean;
  /** The response was delivered in full. */
  completed: boolean;
  /** The client went away before the response ended (an abort, an idle timeout). */
  clientClosedEarly: boolean;
  /** When the client went away, in ms after the request arrived. */
  closedAfterMs?: number;
  /** How the turn's barrier treated the request, when the turn has one. */
  barrier?: BarrierOutcome;
}

/** A running fake LLM server. */
export interface FakeLlm {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** The port it listens on. */
  port: number;
  /** Base URL for the Anthropic SDK (`provider.baseURL` / `ANTHROPIC_BASE_URL`). */
  anthropicBaseURL: string;
  /** Base URL for the OpenAI SDK (`provider.baseURL` / `OPENAI_BASE_URL`). */
  openaiBaseURL: string;
  /** Every request received, live. */
  requests: FakeLlmRequest[];
  /** Swaps the script (an object or a path to a JSON file); resets the turns and the prompt cache. */
  setFixture(fixture: Fixture | string): void;
  /** Clears the request log and restarts the current script. */
  reset(): void;
  /** Stops the server, cutting open connections. */
  close(): Promise<void>;
}

/** How to start the fake server. */
export interface FakeLlmOptions {
  /** The script: an object or a path to a JSON file. */
  fixture: Fixture | string;
  /** Port to listen on (default: any free one). */
  port?: number;
  /** Address to listen on (default 127.0.0.1). */
  host?: string;
}

type Wire = typeof anthropic | typeof openai;
type StreamFault = Extract<FaultSpec, { type: 'stall_after_headers' | 'reset_mid_stream' | 'malformed_sse' | 'error_event' }>;

interface ScriptState {
  script: Script;
  fixture: Fixture;
  anthropicCache: AnthropicPromptCache;
  openaiCache: OpenAIPromptCache;
  redacted: Set<string>;
  barriers: Barriers;
}

const STREAM_FAULTS = new Set(['stall_after_headers', 'reset_mid_stream', 'malformed_sse', 'error_event']);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the server on 127.0.0.1 (a free port unless one is given). */
export async function startFakeLlm(options: FakeLlmOptions): Promise<FakeLlm> {
  const load = (f: Fixture | string) => (typeof f === 'string' ? readFixture(f) : f);
  let state!: ScriptState;
  const setFixture = (f: Fixture | string) => {
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
  const requests: FakeLlmRequest[] = [];
  const sockets = new Set<Socket>();

  const server = createServer(async (req, res) => {
    try {
      await handle(req, res);
    } catch (error) {
      if (!res.headersSent) json(res, 500, { error: { message: `fake-llm bug: ${(error as Error).stack}` } });
      else res.destroy();
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/_requests' && req.method === 'GET') return json(res, 200, requests);
    if (path === '/_requests' && req.method === 'DELETE') {
      requests.length = 0;
      return json(res, 200, { ok: true });
    }
    if (path === '/_fixture' && req.method === 'POST') {
      setFixture(JSON.parse(await readBody(req)) as Fixture);
      return json(res, 200, { ok: true });
    }
    if (path === '/_health') return json(res, 200, { ok: true });
    if (path === '/v1/models' && req.method === 'GET')
      return json(res, 200, { object: 'list', data: (state.fixture.models ?? []).map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake-llm' })) });

    const wire: Wire | undefined =
      path === '/v1/messages' || path === '/v1/messages/count_tokens' ? anthropic : path === '/v1/chat/completions' ? openai : undefined;
    const started = Date.now();
    const record: FakeLlmRequest = {
      index: requests.length,
      time: started,
      method: req.method ?? 'GET',
      path,
      headers: { ...req.headers },
      body: undefined,
      completed: false,
      clientClosedEarly: false,
    };
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
      const headers: Record<string, string> = {};
      if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
      if (fault.retryAfterMs !== undefined) headers['retry-after-ms'] = String(fault.retryAfterMs);
      return fail(res, record, wire, fault.status, fault.message ?? defaultMessage(fault.status), headers, fault.errorType);
    }
    if (fault?.type === 'reset_before_headers') return void req.socket.destroy();
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
    const streamFault = fault && !('status' in fault) && STREAM_FAULTS.has(fault.type) ? (fault as StreamFault) : undefined;
    const answered = () => {
      record.completed = true;
      // A reply cut short by a fault leaves its turn to answer the retry.
      if (picked.turn && (!fault || fault.type === 'slow_first_byte')) picked.turn.answered++;
    };

    let events: SseEvent[];
    let frame: (e: SseEvent) => string;
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

  function respondWhole(res: ServerResponse, record: FakeLlmRequest, body: WireBody, fault: StreamFault | undefined, answered: () => void): void {
    record.status = 200;
    if (!fault) {
      json(res, 200, body);
      return answered();
    }
    const text = JSON.stringify(body);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
    if (fault.type === 'stall_after_headers') return res.flushHeaders();
    if (fault.type === 'malformed_sse') return void res.end(text.slice(0, Math.floor(text.length / 2)) + '<garbage');
    res.write(text.slice(0, Math.floor(text.length / 2)));
    setTimeout(() => res.destroy(), 5);
  }

  /** Writes SSE events one by one, applying a mid-stream fault at its event index. */
  async function respondStream(
    res: ServerResponse,
    record: FakeLlmRequest,
    stream: { events: SseEvent[]; frame: (e: SseEvent) => string; done: string; eventDelayMs: number; fault?: StreamFault; wire: Wire },
    answered: () => void,
  ): Promise<void> {
    record.status = 200;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'request-id': `req_fake_${record.index}` });
    res.flushHeaders();
    const { fault } = stream;
    const cutAt = fault ? (fault.afterEvents ?? (fault.type === 'stall_after_headers' ? 0 : 2)) : Infinity;
    for (let i = 0; i < stream.events.length; i++) {
      if (res.destroyed) return;
      if (fault && i === cutAt) {
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
      await new Promise((resolve) => res.write(stream.frame(stream.events[i]!), resolve));
      if (stream.eventDelayMs) await sleep(stream.eventDelayMs);
    }
    if (fault?.type === 'stall_after_headers') return;
    res.end(stream.done);
    answered();
  }

  function fail(res: ServerResponse, record: FakeLlmRequest, wire: Wire, status: number, message: string, headers: Record<string, string> = {}, type?: string): void {
    record.status = status;
    record.completed = true;
    json(res, status, wire.errorBody(status, message, type), headers);
  }

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve(undefined));
  });
  const address = server.address() as AddressInfo;
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
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const DEFAULT_MESSAGES: Record<number, string> = {
  401: 'invalid x-api-key',
  403: 'permission denied',
  429: 'Rate limited',
  500: 'Internal server error',
  503: 'Service unavailable',
  529: 'Overloaded',
};

function defaultMessage(status: number): string {
  return DEFAULT_MESSAGES[status] ?? `error ${status}`;
}

function lastToolJson(blocks: WireBody[]): string {
  const tools = blocks.filter((b) => b.type === 'tool_use');
  return JSON.stringify(tools[tools.length - 1]?.input ?? {});
}

function lastCallJson(content: ContentSpec[]): string {
  const calls = content.filter((b) => b.type === 'tool_call');
  return JSON.stringify(calls[calls.length - 1]?.input ?? {});
}

/** A non-streamed Anthropic reply cut inside its last tool call: the API ends it at max_tokens with the input that fit. */
function truncatedWhole(base: anthropic.AnthropicReply, cut: number | undefined): anthropic.AnthropicReply {
  if (cut === undefined) return base;
  const blocks: WireBody[] = structuredClone(base.blocks);
  const last = blocks.filter((b) => b.type === 'tool_use').pop();
  if (!last) return base;
  const keys = Object.keys(last.input);
  last.input = Object.fromEntries(keys.slice(0, Math.max(0, keys.length - 1)).map((k) => [k, last.input[k]]));
  return { ...base, blocks, stopReason: 'max_tokens' };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), 'request-id': 'req_fake', ...headers });
  res.end(text);
}
