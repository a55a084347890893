import { createKernel, isAssistantError, Stage, type Kernel, type Message } from '../../core/index.js';
import { createRunner, openSessionForRun, streamJsonLine, usageSince, STREAM_JSON_VERSION, type AgentRunner } from '../../core/kits/agent/index.js';
import { PendingApprovals } from './approvals.js';
import { EventLog } from './event-log.js';
import { SERVE_ERRORS } from './errors.js';
import { ServeError } from './http-error.js';
import type { ApprovalAnswer } from '../../core/index.js';

/**
 * One session driven by the server: its own kernel (so sessions never share a todo list, grants,
 * mode or cost ledger), a runner, the events for its clients, and the approvals they answer.
 * The interface is what a front end needs from an engine; a shared `query()` driver can replace
 * the body later without the HTTP layer noticing.
 */
export interface SessionDriver {
  readonly id: string;
  readonly events: EventLog;
  /** True while a prompt is being worked on. */
  readonly busy: boolean;
  /** Where the session went when another surface took it over; undefined while this server holds it. */
  readonly lostTo: string | undefined;
  /** What a client needs to draw the session, and the event id to follow the stream after. */
  view(): Record<string, unknown>;
  /** Starts working on a prompt (resolves once started); refuses when busy or taken over. */
  prompt(text: string): Promise<void>;
  /** Stops the running prompt (pending approvals are denied). */
  interrupt(): void;
  /** Answers a pending approval; false when none has that id. */
  answer(approvalId: string, answer: ApprovalAnswer): boolean;
  /** Gives the session up: the running prompt stops, the lease is released. */
  close(): Promise<void>;
}

/** Which session to drive: a new one, or a stored one by full id (taking it over only when asked). */
export interface DriverRequest {
  resume?: string;
  takeOver?: boolean;
  /** How often the lease is checked, so a take-over elsewhere is noticed while idle. */
  leaseCheckMs?: number;
}

const ABORT_REASON = 'the web client interrupted the prompt';
const busy = () => new ServeError(409, SERVE_ERRORS.ASSISTANT_SERVE_SESSION_BUSY, 'the session is working on a prompt; interrupt it or wait');

/** Opens (creates, or resumes taking its lease) a session on a fresh kernel built from the server's configuration. */
export async function openDriver(base: Kernel, request: DriverRequest): Promise<SessionDriver> {
  const kernel = await createKernel({ config: base.resolvedConfig, headless: false, logLevel: 'warn', logFile: process.env.ASSISTANT_LOG_FILE });
  try {
    await kernel.start();
    const provider = kernel.provider();
    const defaults = { provider: provider.name, model: kernel.config.provider?.model ?? provider.defaultModel };
    const flags = request.resume ? { resume: request.resume, takeOver: request.takeOver } : {};
    const session = await openSessionForRun(kernel, flags, defaults, false);
    kernel.session = session;
    return new KernelDriver(kernel, createRunner(kernel, session), request.leaseCheckMs ?? 1500);
  } catch (error) {
    await kernel.shutdown('error').catch(() => undefined);
    throw error;
  }
}

class KernelDriver implements SessionDriver {
  readonly events = new EventLog();
  private readonly approvals = new PendingApprovals(this.events);
  private readonly opened: readonly Message[];
  private readonly watch: NodeJS.Timeout | undefined;
  private lost: string | undefined;
  private closed = false;
  /** A prompt is being checked before it starts (so a second one is refused, not run twice). */
  private starting = false;
  /** The lease's claim time at the last check, and how many checks ran. */
  private claimedSince: number | undefined;
  private checks = 0;
  private checking = false;

  constructor(
    private readonly kernel: Kernel,
    private readonly runner: AgentRunner,
    leaseCheckMs: number,
  ) {
    this.opened = [...runner.session.messages];
    kernel.hooks.approval.tapPromise({ name: 'surface-serve', stage: Stage.INTERACTIVE }, (items) => this.approvals.ask(items));
    kernel.hooks.event.tap('surface-serve', (event) => {
      if (event.sessionId && event.sessionId !== this.id) return;
      const line = streamJsonLine(event, this.id);
      if (line) this.events.append('message', line);
      if (event.type === 'tool_end' && !event.agentId && event.call.name === 'TodoWrite') this.events.append('todos', { todos: this.runner.session.todos });
      if (event.type === 'turn_end' && !event.agentId) this.events.append('context', this.context());
    });
    this.watch = kernel.config.persistence?.store !== 'none' ? setInterval(() => void this.checkLease(), leaseCheckMs) : undefined;
    this.watch?.unref();
  }

  get id(): string {
    return this.runner.session.info.id;
  }

  get busy(): boolean {
    return this.runner.busy;
  }

  get lostTo(): string | undefined {
    return this.lost;
  }

  view(): Record<string, unknown> {
    const session = this.runner.session;
    // The history at open plus every event since, when the log still holds them all: exact, nothing twice.
    const [messages, after] = this.events.holds(0) ? [this.opened, 0] : [session.messages, this.events.lastId];
    return {
      id: this.id,
      title: session.info.title,
      provider: session.info.provider,
      model: session.info.model,
      attached: true,
      busy: this.busy,
      lost_to: this.lost,
      messages: messages.map(forClient),
      after,
      last_event_id: this.events.lastId,
      todos: session.todos,
      approvals: this.approvals.list(),
      context: this.context(),
    };
  }

  async prompt(text: string): Promise<void> {
    this.checkPromptable();
    if (this.starting) throw busy();
    this.starting = true;
    try {
      await this.checkFresh();
    } finally {
      this.starting = false;
    }
    this.checkPromptable();
    this.events.append('prompt', { text });
    this.events.append('state', { busy: true });
    const before = this.kernel.budget.totals().usage;
    const run = this.runner.run(text);
    void run.then(
      (result) => {
        this.events.append('message', {
          v: STREAM_JSON_VERSION,
          type: 'result',
          session_id: this.id,
          reason: result.reason,
          is_error: result.reason !== 'completed',
          text: result.text,
          turns: result.turns,
          usage: result.usage,
          total_usage: usageSince(before, this.kernel.budget.totals().usage),
          ...(result.message ? { message: result.message } : {}),
          ...(result.error ? { error_code: result.error.code } : {}),
        });
        if (result.error?.code === 'ASSISTANT_SESSION_TAKEN_OVER') this.markLost(result.error.message);
        this.finishRun();
      },
      (error: unknown) => {
        this.events.append('message', { v: STREAM_JSON_VERSION, type: 'notice', session_id: this.id, level: 'error', message: String((error as Error)?.message ?? error), ...(isAssistantError(error) ? { code: error.code } : {}) });
        if (isAssistantError(error) && error.code === 'ASSISTANT_SESSION_TAKEN_OVER') this.markLost(error.message);
        this.finishRun();
      },
    );
  }

  private checkPromptable(): void {
    if (this.lost) throw new ServeError(409, SERVE_ERRORS.ASSISTANT_SERVE_LEASE_LOST, `session ${this.id.slice(0, 8)} was taken over by ${this.lost}; attach it with take_over to take it back`);
    if (this.closed) throw new ServeError(409, SERVE_ERRORS.ASSISTANT_SERVE_NOT_ATTACHED, 'the session was closed on this server');
    if (this.runner.busy) throw busy();
  }

  /**
   * A surface that took the session over and gave it back between two lease checks wrote turns we
   * do not have: the stored history is longer than ours. Then the session is treated as taken over
   * (attaching again with take_over reloads it), rather than continuing from a stale history.
   */
  private async checkFresh(): Promise<void> {
    if (this.kernel.config.persistence?.store === 'none') return;
    const stored = await this.kernel.store().load({ kind: 'id', id: this.id, projectRoot: this.kernel.projectRoot });
    if (stored && stored.messages.length > this.runner.session.messages.length) this.markLost('session in use on another surface (which has since released it); it wrote to the session');
  }

  interrupt(): void {
    this.approvals.denyAll(ABORT_REASON);
    this.runner.abort();
  }

  answer(approvalId: string, answer: ApprovalAnswer): boolean {
    return this.approvals.answer(approvalId, answer);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.watch) clearInterval(this.watch);
    this.interrupt();
    await this.kernel.shutdown('done').catch(() => undefined);
  }

  private finishRun(): void {
    this.events.append('context', this.context());
    this.events.append('state', { busy: false });
  }

  /**
   * Re-claims the lease (re-entrant for its holder): a live other holder means it was taken over.
   * A claim newer than ours means it was taken and given back since the last check: then the
   * stored history says whether the other surface wrote. Now and then that is checked anyway,
   * for stores that keep one claim across such a gap.
   */
  private async checkLease(): Promise<void> {
    if (this.lost || this.closed || this.checking) return;
    this.checking = true;
    try {
      const { since } = (await this.kernel.store().acquire(this.id)).owner;
      const reclaimed = this.claimedSince !== undefined && since !== this.claimedSince;
      this.claimedSince = since;
      if (reclaimed || (++this.checks % 10 === 0 && !this.runner.busy)) await this.checkFresh();
    } catch (error) {
      if (isAssistantError(error) && (error.code === 'ASSISTANT_SESSION_IN_USE' || error.code === 'ASSISTANT_SESSION_TAKEN_OVER')) this.markLost(error.message);
    } finally {
      this.checking = false;
    }
  }

  private markLost(message: string): void {
    if (this.lost) return;
    this.lost = /in use on (.+?);/.exec(message)?.[1] ?? /taken over by (.+?);/.exec(message)?.[1] ?? 'another surface';
    this.events.append('lease_lost', { where: this.lost, message });
    this.approvals.denyAll(`the session moved to ${this.lost}`);
    this.runner.abort();
  }

  private context(): Record<string, unknown> {
    const totals = this.kernel.budget.totals();
    const latest = this.kernel.budget.latest(undefined);
    const inContext = latest ? latest.usage.inputTokens + latest.usage.cacheReadTokens + latest.usage.cacheWriteTokens : 0;
    return { usage: this.runner.session.usage, cost_usd: totals.costUsd, unpriced: totals.unpriced, requests: totals.requests, context_tokens: inContext };
  }
}

/** A message as the web client draws it: text, reasoning, tool calls and results; image bytes and signatures stay on the server. */
export function forClient(message: Message): Record<string, unknown> {
  const content = message.content.map((part: Message['content'][number]) => {
    switch (part.type) {
      case 'text':
        return { type: 'text', text: part.text };
      case 'image':
        return { type: 'image', media_type: part.mediaType };
      case 'thinking':
        return { type: 'thinking', text: part.redacted ? '' : part.text };
      case 'tool_call':
        return { type: 'tool_call', id: part.id, name: part.name, input: part.input };
      case 'tool_result':
        return { type: 'tool_result', id: part.toolCallId, is_error: part.isError ?? false, text: part.content.map((c) => (c.type === 'text' ? c.text : `[${c.mediaType}]`)).join('\n') };
    }
  });
  return { role: message.role, content, ...(message.role === 'user' && message.meta?.origin ? { origin: message.meta.origin } : {}) };
}
