import { Stage } from '../../kernel/hooks.js';
import type { Kernel } from '../../kernel/kernel-types.js';
import { createRunner } from './runner.js';
import type { AgentLoopResult, AgentRunner, RunOptions } from '../../types/agent.js';
import type { OriginEvent } from '../../types/events.js';
import type { UserMessage } from '../../types/messages.js';
import type { ApprovalAnswer, ApprovalRequest } from '../../types/permission.js';
import { resultLine, streamJsonLine, type StreamJsonEvent } from './headless-output.js';
import { openSessionForRun } from './session-for-run.js';

/**
 * Answers a batch of `ask` decisions for a surface that is not the terminal (an SDK callback, an
 * editor, a web page). One answer per request, in order. The signal aborts when the prompt is
 * interrupted: stop asking and deny. A throw or a wrong number of answers denies every call.
 */
export type ApprovalHandler = (items: ApprovalRequest[], signal: AbortSignal) => Promise<ApprovalAnswer[]>;

/** How a surface drives a session. */
export interface SessionDriverOptions {
  /** Who answers approvals; without one, calls that need approval are denied. */
  approve?: ApprovalHandler;
  /** Every event of the session, as it happens (tool calls, deltas, permissions...). */
  onEvent?: (event: OriginEvent) => void;
}

/**
 * One session driven by a surface other than the terminal: prompts in, typed events out, approvals
 * answered by a callback. The kernel should be one the driver owns alone (one open session).
 */
export interface SessionDriver {
  /** The kernel the session runs on. */
  readonly kernel: Kernel;
  /** The runner of the session (its `session` has the history, todos, mode). */
  readonly runner: AgentRunner;
  /** The session's id: every event it yields carries it. */
  readonly sessionId: string;
  /** Works on a prompt; raw events go to `onEvent`. Resolves when the work ends (aborted included). */
  run(prompt: string | UserMessage, options?: RunOptions): Promise<AgentLoopResult>;
  /**
   * Works on a prompt and yields its stream-json events, ending with the `result` event. Leaving the
   * loop early, or `signal` aborting (before or during the run), interrupts the prompt.
   */
  stream(prompt: string | UserMessage, options?: RunOptions, signal?: AbortSignal): AsyncGenerator<StreamJsonEvent, void, undefined>;
  /** Stops the running prompt and denies the approvals it waits for. */
  interrupt(): void;
  /** Stops listening (the kernel stays open; its owner shuts it down). */
  close(): void;
}

const deniedAll = (items: ApprovalRequest[], message: string): ApprovalAnswer[] => items.map(() => ({ behavior: 'deny', scope: 'once', message }));

/** Drives `runner`'s session on `kernel` (see SessionDriver). */
export function createSessionDriver(kernel: Kernel, runner: AgentRunner, options: SessionDriverOptions = {}): SessionDriver {
  const sessionId = runner.session.info.id;
  const listeners = new Set<(event: OriginEvent) => void>();
  let closed = false;
  let approvals: AbortController | undefined;
  const ours = (event: OriginEvent) => !event.sessionId || event.sessionId === sessionId;

  kernel.hooks.event.tap('session-driver', (event) => {
    if (closed || !ours(event)) return;
    options.onEvent?.(event);
    for (const listener of listeners) listener(event);
  });
  // Only for the main agent's session; undefined lets another surface (or the headless denial) answer.
  kernel.hooks.approval.tapPromise({ name: 'session-driver', stage: Stage.INTERACTIVE }, async (items) => {
    if (closed || !items.every((item) => item.request.sessionId === sessionId)) return undefined;
    if (!options.approve) return deniedAll(items, 'no one was asked to approve this call; do the task another way');
    approvals ??= new AbortController();
    try {
      const answers = await options.approve(items, approvals.signal);
      if (approvals.signal.aborted) return deniedAll(items, 'the prompt was interrupted');
      return answers;
    } catch (error) {
      return deniedAll(items, `the approval callback failed (${(error as Error)?.message ?? error}); denied to be safe`);
    }
  });

  const run = async (prompt: string | UserMessage, runOptions?: RunOptions) => {
    if (closed) throw new Error('this session driver is closed');
    approvals = new AbortController();
    try {
      return await runner.run(prompt, runOptions);
    } finally {
      approvals = undefined;
    }
  };

  async function* stream(prompt: string | UserMessage, runOptions?: RunOptions, signal?: AbortSignal): AsyncGenerator<StreamJsonEvent, void, undefined> {
    const queue: StreamJsonEvent[] = [];
    let wake: (() => void) | undefined;
    const listener = (event: OriginEvent) => {
      const line = streamJsonLine(event, sessionId);
      if (!line) return;
      queue.push(line);
      wake?.();
    };
    listeners.add(listener);
    const before = kernel.budget.totals().usage;
    let result: AgentLoopResult | undefined;
    let failure: unknown;
    const done = run(prompt, runOptions).then(
      (r) => void (result = r),
      (error: unknown) => void (failure = error ?? new Error('the run failed')),
    );
    void done.finally(() => wake?.());
    // The run has its abort controller from its first synchronous step, so an early abort lands.
    if (signal?.aborted) interrupt();
    signal?.addEventListener('abort', interrupt);
    try {
      for (;;) {
        while (queue.length) yield queue.shift()!;
        if (result || failure) break;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
      if (failure) throw failure;
      yield resultLine(result!, sessionId, before, kernel.budget.totals().usage);
    } finally {
      signal?.removeEventListener('abort', interrupt);
      listeners.delete(listener);
      // The consumer left early (break, throw): stop the work rather than leave it running unseen.
      if (!result && !failure) {
        interrupt();
        await done;
      }
    }
  }

  function interrupt(): void {
    approvals?.abort();
    runner.abort();
  }

  return {
    kernel,
    runner,
    sessionId,
    run,
    stream,
    interrupt,
    close() {
      closed = true;
      interrupt();
      listeners.clear();
    },
  };
}

/** Which session `startDrivenSession` opens: a new one, or a stored one as `--resume` would. */
export interface DrivenSessionOptions extends SessionDriverOptions {
  /** Continue this stored session (an id or a unique prefix). */
  resume?: string;
  /** With `resume`: a new session starting from its history. */
  forkSession?: boolean;
  /** With `resume`: take the session from the surface holding it. */
  takeOver?: boolean;
}

/**
 * Starts `kernel` (one made for this session alone, `headless: false` when someone answers
 * approvals), opens its session as a prompt run would (new, or resumed with its lease taken), makes
 * it the kernel's open session, registers the plugins' commands, and drives it. The caller shuts the
 * kernel down when done (`driver.kernel.shutdown()`), which releases the lease.
 */
export async function startDrivenSession(kernel: Kernel, options: DrivenSessionOptions = {}): Promise<SessionDriver> {
  await kernel.start();
  kernel.hooks.commands.call(kernel.commands);
  // Fail before anything else happens when no model is reachable.
  const provider = kernel.provider();
  const defaults = { provider: provider.name, model: kernel.config.provider?.model ?? provider.defaultModel };
  const flags = { resume: options.resume, forkSession: options.forkSession, takeOver: options.takeOver };
  const session = await openSessionForRun(kernel, flags, defaults, false);
  kernel.session = session;
  return createSessionDriver(kernel, createRunner(kernel, session), options);
}
