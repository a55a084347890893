import { isAssistantError, type ApprovalAnswer, type ApprovalRequest, type Kernel, type Message } from '../../core/index.js';
import { kernelForSurface, resultLine, startDrivenSession, streamJsonLine, STREAM_JSON_VERSION, watchLease, type LeaseWatch, type SessionDriver } from '../../core/kits/agent/index.js';
import { PendingApprovals } from './approvals.js';
import { EventLog } from './event-log.js';
import { SERVE_ERRORS } from './errors.js';
import { ServeError } from './http-error.js';

/**
 * One session served to web clients: the kit's session driver on a kernel of its own (so sessions
 * never share a todo list, grants, mode or cost ledger), the events for its clients, the approvals
 * they answer, and the lease watch that says where the session went when another surface took it.
 */
export interface ServedSession {
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

/** Which session to serve: a new one, or a stored one by full id (taking it over only when asked). */
export interface ServedSessionRequest {
  resume?: string;
  takeOver?: boolean;
  /** How often the lease is checked, so a take-over elsewhere is noticed while idle. */
  leaseCheckMs?: number;
}

const ABORT_REASON = 'the web client interrupted the prompt';
const busy = () => new ServeError(409, SERVE_ERRORS.ASSISTANT_SERVE_SESSION_BUSY, 'the session is working on a prompt; interrupt it or wait');

/** Opens (creates, or resumes taking its lease) a session on a surface kernel made from the server's configuration. */
export async function openServedSession(base: Kernel, request: ServedSessionRequest): Promise<ServedSession> {
  const kernel = await kernelForSurface(base);
  try {
    const served = new KernelSession(kernel, request.leaseCheckMs ?? 1500);
    await served.open(request);
    return served;
  } catch (error) {
    await kernel.shutdown('error').catch(() => undefined);
    throw error;
  }
}

class KernelSession implements ServedSession {
  readonly events = new EventLog();
  private readonly approvals = new PendingApprovals(this.events);
  private driver!: SessionDriver;
  private lease: LeaseWatch | undefined;
  private opened: readonly Message[] = [];
  private lost: string | undefined;
  private closed = false;
  /** A prompt is being checked before it starts (so a second one is refused, not run twice). */
  private starting = false;

  constructor(
    private readonly kernel: Kernel,
    private readonly leaseCheckMs: number,
  ) {}

  async open(request: ServedSessionRequest): Promise<void> {
    this.driver = await startDrivenSession(this.kernel, {
      resume: request.resume,
      takeOver: request.takeOver,
      approve: (items, signal) => this.ask(items, signal),
      onEvent: (event) => {
        const line = streamJsonLine(event, this.id);
        if (line) this.events.append('message', line);
        if (event.type === 'tool_end' && !event.agentId && event.call.name === 'TodoWrite') this.events.append('todos', { todos: this.driver.runner.session.todos });
        if (event.type === 'turn_end' && !event.agentId) this.events.append('context', this.context());
      },
    });
    this.opened = [...this.driver.runner.session.messages];
    this.lease = watchLease(this.kernel, (loss) => this.markLost(loss.where, `session ${loss.sessionId.slice(0, 8)} continued in ${loss.where}`), {
      intervalMs: this.leaseCheckMs,
      // Idle between prompts: now and then the stored history is compared too (see LeaseWatchOptions).
      compareHistoryEvery: 10,
    });
  }

  /** A batch of approvals for the web clients; an interrupt (the signal) denies what still waits. */
  private async ask(items: ApprovalRequest[], signal: AbortSignal): Promise<ApprovalAnswer[]> {
    const deny = () => this.approvals.denyAll(ABORT_REASON);
    signal.addEventListener('abort', deny, { once: true });
    try {
      return await this.approvals.ask(items);
    } finally {
      signal.removeEventListener('abort', deny);
    }
  }

  get id(): string {
    return this.driver.sessionId;
  }

  get busy(): boolean {
    return this.driver.runner.busy;
  }

  get lostTo(): string | undefined {
    return this.lost;
  }

  view(): Record<string, unknown> {
    const session = this.driver.runner.session;
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
      // A take-over that came and went since the last poll wrote turns we do not have: look now.
      await this.lease?.check();
    } finally {
      this.starting = false;
    }
    this.checkPromptable();
    this.events.append('prompt', { text });
    this.events.append('state', { busy: true });
    const before = this.kernel.budget.totals().usage;
    void this.driver.run(text).then(
      async (result) => {
        // A new session's lease is claimed by its first run: seen now, a take-over before the next poll is caught.
        await this.lease?.check();
        this.events.append('message', resultLine(result, this.id, before, this.kernel.budget.totals().usage));
        if (result.error?.code === 'ASSISTANT_SESSION_TAKEN_OVER') this.markLost(whereIn(result.error.message), result.error.message);
        this.finishRun();
      },
      (error: unknown) => {
        this.events.append('message', { v: STREAM_JSON_VERSION, type: 'notice', session_id: this.id, level: 'error', message: String((error as Error)?.message ?? error), ...(isAssistantError(error) ? { code: error.code } : {}) });
        if (isAssistantError(error) && error.code === 'ASSISTANT_SESSION_TAKEN_OVER') this.markLost(whereIn(error.message), error.message);
        this.finishRun();
      },
    );
  }

  private checkPromptable(): void {
    if (this.lost) throw new ServeError(409, SERVE_ERRORS.ASSISTANT_SERVE_LEASE_LOST, `session ${this.id.slice(0, 8)} was taken over by ${this.lost}; attach it with take_over to take it back`);
    if (this.closed) throw new ServeError(409, SERVE_ERRORS.ASSISTANT_SERVE_NOT_ATTACHED, 'the session was closed on this server');
    if (this.busy) throw busy();
  }

  interrupt(): void {
    this.approvals.denyAll(ABORT_REASON);
    this.driver.interrupt();
  }

  answer(approvalId: string, answer: ApprovalAnswer): boolean {
    return this.approvals.answer(approvalId, answer);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.lease?.stop();
    this.interrupt();
    this.driver.close();
    await this.kernel.shutdown('done').catch(() => undefined);
  }

  private finishRun(): void {
    this.events.append('context', this.context());
    this.events.append('state', { busy: false });
  }

  private markLost(where: string, message: string): void {
    if (this.lost) return;
    this.lost = where;
    this.lease?.stop();
    this.events.append('lease_lost', { where, message });
    this.approvals.denyAll(`the session moved to ${where}`);
    this.driver.interrupt();
  }

  private context(): Record<string, unknown> {
    const totals = this.kernel.budget.totals();
    const latest = this.kernel.budget.latest(undefined);
    const inContext = latest ? latest.usage.inputTokens + latest.usage.cacheReadTokens + latest.usage.cacheWriteTokens : 0;
    return { usage: this.driver.runner.session.usage, cost_usd: totals.costUsd, unpriced: totals.unpriced, requests: totals.requests, context_tokens: inContext };
  }
}

/** Where a store's "taken over" error says the session went. */
const whereIn = (message: string) => /in use on (.+?);/.exec(message)?.[1] ?? /taken over by (.+?);/.exec(message)?.[1] ?? 'another surface';

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
