import {
  AsyncParallelHook,
  AsyncSeriesBailHook,
  AsyncSeriesHook,
  AsyncSeriesWaterfallHook,
  HookMap,
  SyncBailHook,
  SyncHook,
  SyncWaterfallHook,
} from 'tapable';
import type { AssistantError } from './errors.js';
import type { Kernel } from './kernel-types.js';
import type { UserMessage, ToolCallPart, ToolResultPart, SystemSection } from '../types/messages.js';
import type { Provider, ProviderRequest, ProviderSettings, ToolSpec } from '../types/provider.js';
import type { LockContext, LockSet, ToolDefinition, ToolRegistry } from '../types/tools.js';
import type { ApprovalAnswer, ApprovalRequest, PermissionDecision, PermissionRequest } from '../types/permission.js';
import type { ContextReason, ContextView } from '../types/context.js';
import type { SessionEvent, SessionInfo, SessionStore, StoreSettings } from '../types/session.js';
import type { CommandRegistry } from '../types/commands.js';
import type { OriginEvent } from '../types/events.js';
import type { AgentRunner, SessionState } from '../types/agent.js';

/**
 * Named stages for ordering taps (tapable's `stage`): lower runs first. Config order never matters,
 * and plugins never do arithmetic on stages: a place that needs a name gets one here.
 * Permission layers: GUARD → POLICY → TOOL_POLICY → MODE → ALLOW_RULES → PATH_LIMITS → CLASSIFY → GRANTS → LAST (ask).
 */
export const Stage = Object.freeze({
  /** Must see things first (the selected context strategy). */
  FIRST: -1000,
  /** Permission: hard blocks nothing may override. */
  GUARD: -300,
  /** Permission: the project's deny and ask rules. */
  POLICY: -200,
  /** Permission: a tool's own layer (Bash's network flag, starting a sub-agent): after the rules, before the mode. */
  TOOL_POLICY: -150,
  /** Permission: the permission mode. */
  MODE: -100,
  /** Permission: allow rules, after the mode so plan mode still refuses writes. */
  ALLOW_RULES: -50,
  /** Everything else. */
  DEFAULT: 0,
  /** Permission: writes outside the project and doubtful paths, after allow rules so a rule can allow them. */
  PATH_LIMITS: 50,
  /** Permission: command risk classification. */
  CLASSIFY: 100,
  /** Permission: "yes for this session" grants. */
  GRANTS: 200,
  /** The UI. */
  INTERACTIVE: 500,
  /** Shutdown: write out what is buffered (metrics, audit records, telemetry) while the store is still open. */
  FLUSH: 790,
  /** Stores: flush last on shutdown. */
  PERSIST: 800,
  /** Must see things last (decorators, final rewrites). */
  LAST: 1000,
  /** Recorders that must see the final value, after every LAST rewrite (replay). */
  RECORD: 1100,
});

/** Where a turn is: passed to turn and tool hooks. */
export interface TurnContext {
  /** The model turn of this prompt, from 1. */
  turn: number;
  /** The open session, when there is one. */
  sessionId?: string;
  /** The sub-agent whose turn it is; absent for the main agent. */
  agentId?: string;
  /** Aborted when the prompt is stopped (Ctrl+C, `abort()`); long work should stop with it. */
  signal: AbortSignal;
}

/** The model ended a reply without calling a tool: what `beforeStop` taps see. */
export interface StopContext extends TurnContext {
  /** The reply's text. */
  text: string;
  /** How many times `beforeStop` already sent the model back to work during this prompt (guards against loops). */
  continued: number;
}

/** How a session came to be open: new, resumed, forked, or a new one replacing the previous (`/clear`). */
export type SessionOpenSource = 'startup' | 'resume' | 'fork' | 'clear';

/** What `sessionOpen` taps learn besides the session. */
export interface SessionOpenInfo {
  /** Whether the session is new, resumed, forked, or replaces the previous one after `/clear`. */
  source: SessionOpenSource;
}

/** A tool call with what the pipeline knows about it. */
export interface ToolCallInfo {
  /** The registered tool being called. */
  definition: ToolDefinition<any>;
  /** The turn the call belongs to. */
  turn: TurnContext;
}

/** What an interactive UI receives: the runner for the open session, and a first prompt if one was given. */
export interface InteractiveSession {
  /** Runs prompts on the open session (with steering and interrupts). */
  runner: AgentRunner;
  /** A prompt given on the command line, to run first. */
  initialPrompt?: string;
}

/** Why the kernel is shutting down. */
export interface ShutdownInfo {
  /** `done` after a normal end, `signal` on SIGINT/SIGTERM, `error` after a fatal error. */
  reason: 'done' | 'signal' | 'error';
}

/** Build the hook set for one kernel. The ONLY place hooks are declared. */
export function createHooks() {
  return Object.freeze({
    // lifecycle
    /** Async set-up (open a store, warm a pool), in stage order. Fails the start when a tap throws. */
    ready: new AsyncSeriesHook<[Kernel]>(['kernel']),
    /** Ordered flush and release; stores tap at Stage.PERSIST so they flush last. */
    shutdown: new AsyncSeriesHook<[ShutdownInfo]>(['info']),
    /** A fatal error is about to end the run (the CLI fires it before exiting); observers only, a throw is ignored. */
    failed: new SyncHook<[AssistantError]>(['error']),

    // turn
    /** Enrich or rewrite the user's prompt before it joins the history (e.g. `@file` mentions). */
    userPrompt: new AsyncSeriesWaterfallHook<[UserMessage, TurnContext]>(['message', 'turn']),
    /** A model turn is starting. Observers that may await (checkpoints). */
    turnStart: new AsyncSeriesHook<[TurnContext]>(['turn']),
    /** A model turn ended (its tool results are in the history). */
    turnEnd: new AsyncSeriesHook<[TurnContext]>(['turn']),
    /** The reply is complete (no tool call); the first tap that returns a message sends the model back to work with it. Fails open. */
    beforeStop: new AsyncSeriesBailHook<[StopContext], string | undefined>(['stop']),
    /** A session was opened (new, resumed, forked, or by `/clear`), before its first prompt. */
    sessionOpen: new AsyncSeriesHook<[SessionState, SessionOpenInfo]>(['session', 'info']),

    // provider
    /** Keyed by provider name; the plugin that knows the name returns a Provider. */
    provider: new HookMap<SyncBailHook<[ProviderSettings], Provider | undefined>>(
      () => new SyncBailHook<[ProviderSettings], Provider | undefined>(['settings']),
    ),
    /** Adjust a request just before it is sent (params, headers, cache breakpoints). */
    providerRequest: new AsyncSeriesWaterfallHook<[ProviderRequest]>(['request']),
    /** Every normalized event of the run (model stream, tools, permissions, notices). Sync, so observers cannot stall it. */
    event: new SyncHook<[OriginEvent]>(['event']),

    // tools
    /** Register tools that need async discovery (MCP servers); fired once at start. */
    registerTools: new AsyncParallelHook<[ToolRegistry]>(['registry']),
    /** Adjust a tool's description or schema as the model will see it. */
    toolDefinition: new SyncWaterfallHook<[ToolSpec, ToolDefinition<any>]>(['spec', 'definition']),
    /** Normalize or rewrite a call's input before permission is asked. Throw to refuse the call. */
    beforeToolCall: new AsyncSeriesWaterfallHook<[ToolCallPart, ToolCallInfo]>(['call', 'info']),
    /** Post-process a result (truncate, redact, format) before the model sees it. */
    afterToolCall: new AsyncSeriesWaterfallHook<[ToolResultPart, ToolCallInfo & { call: ToolCallPart }]>([
      'result',
      'info',
    ]),
    /** What a call reads and writes; the first tap that knows better than the tool's `access` answers. */
    lockSet: new SyncBailHook<[ToolCallPart, ToolDefinition<any>, LockContext], LockSet | undefined>([
      'call',
      'definition',
      'context',
    ]),

    // permission
    /** Layered policy: first decisive tap wins, `undefined` abstains. Fails closed: a throw is a denial. */
    permission: new AsyncSeriesBailHook<[PermissionRequest], PermissionDecision | undefined>(['request']),
    /** Ask a person about the `ask` decisions of one turn, as a batch; one answer per request. No answer (headless) means deny. */
    approval: new AsyncSeriesBailHook<[ApprovalRequest[]], ApprovalAnswer[] | undefined>(['approvals']),

    // context
    /** Sections of the system prompt; each tap returns the new list. */
    systemPrompt: new AsyncSeriesWaterfallHook<[SystemSection[], ContextReason]>(['sections', 'reason']),
    /** Keyed by strategy name; only the strategy `context.strategy` selects shapes the view, each tap returning the new one. */
    contextStrategy: new HookMap<AsyncSeriesWaterfallHook<[ContextView, ContextReason]>>(
      () => new AsyncSeriesWaterfallHook<[ContextView, ContextReason]>(['view', 'reason']),
    ),
    /** Decorates the view after the strategy (a plan reminder at its end); each tap returns the new view. */
    context: new AsyncSeriesWaterfallHook<[ContextView, ContextReason]>(['view', 'reason']),

    // persistence: reads and writes go through `kernel.store()`
    /** Keyed by store name; the plugin that knows the name `persistence.store` selects returns the store. */
    sessionStore: new HookMap<SyncBailHook<[StoreSettings], SessionStore | undefined>>(
      () => new SyncBailHook<[StoreSettings], SessionStore | undefined>(['settings']),
    ),
    /** Observers of the open session: each event once the store has appended it (sinks that keep records beside it: audit, metrics, recording). */
    sessionEvent: new AsyncParallelHook<[SessionEvent, SessionInfo]>(['event', 'session']),

    // commands
    /** Contribute slash commands and CLI subcommands. */
    commands: new SyncHook<[CommandRegistry]>(['registry']),
    /** Take over the terminal for an interactive run; the UI plugin answers with the exit code. */
    interactive: new AsyncSeriesBailHook<[InteractiveSession], number | undefined>(['session']),
  });
}

/** The kernel's hooks, keyed by name. */
export type Hooks = ReturnType<typeof createHooks>;
/** A hook name. */
export type HookName = keyof Hooks;
