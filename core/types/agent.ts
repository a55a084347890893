// The agent's shapes the kernel's own hooks name (`sessionOpen`, `interactive`, `kernel.session`);
// their implementations (openSession, createRunner, runAgentLoop) are in the agent kit.
import type { AssistantError } from '../kernel/errors.js';
import type { LimitsConfig } from './config.js';
import type { DoneReason } from './events.js';
import type { Message, UserMessage, Usage } from './messages.js';
import type { PermissionMode } from './permission.js';
import type { CompactionMarker, SessionEvent, SessionGrant, SessionInfo, TodoItem } from './session.js';
import type { Spent } from './tools.js';

/** The live state of the open session. Change it only through `record`, so every change is persisted. */
export interface SessionState {
  /** Who and what the session is: id, project, title, provider, model. */
  readonly info: SessionInfo;
  /** The conversation history, oldest first. */
  readonly messages: readonly Message[];
  /** The main agent's plan (TodoWrite). */
  readonly todos: readonly TodoItem[];
  /** Permission rules granted "for this session". */
  readonly grants: readonly SessionGrant[];
  /** Tokens used by the whole session. */
  readonly usage: Readonly<Usage>;
  /** Compactions that replaced the history, oldest first. */
  readonly compactions: readonly CompactionMarker[];
  /** The permission mode in force (the UI may switch it). */
  mode: PermissionMode;
  /** Applies an event to the state, appends it to the selected store, then tells `sessionEvent` observers. */
  record(event: SessionEvent): Promise<void>;
}

/** How a prompt's work ended. */
export interface AgentLoopResult {
  /** Why the work ended. */
  reason: DoneReason;
  /** The final assistant text (or what there was when it stopped). */
  text: string;
  /** Tokens the prompt used. */
  usage: Usage;
  /** Model turns taken. */
  turns: number;
  /** Why it stopped, for people, when it did not simply complete. */
  message?: string;
  /** The error that ended it, when `reason` is `error`. */
  error?: AssistantError;
  /** All the prompt spent against its budget: its own requests plus what its tools spent for it (sub-agents). */
  spent: Spent;
}

/** Per-prompt options of `AgentRunner.run`. */
export interface RunOptions {
  /** Overrides of the configured `limits` for this prompt. */
  limits?: LimitsConfig;
  /** Which tools the model may see and call for this prompt. */
  toolFilter?: (name: string) => boolean;
  /** Overrides the configured model for this prompt (the UI's `/model`). */
  model?: string;
}

/** Drives the main agent on the open session: one prompt at a time, with steering and interrupts. */
export interface AgentRunner {
  /** The session prompts run in. */
  readonly session: SessionState;
  /** True while a prompt is being worked on. */
  readonly busy: boolean;
  /** Works on a prompt until done or stopped. Only one prompt runs at a time. */
  run(prompt: string | UserMessage, options?: RunOptions): Promise<AgentLoopResult>;
  /** Queues a message for the next model call of the running prompt (or the next prompt). */
  steer(text: string): void;
  /** Messages waiting to be injected. */
  readonly queued: number;
  /** Removes and returns the messages still waiting (a UI sends them as the next prompt, or back to the editor). */
  takeQueued(): string[];
  /** Stops the running prompt: the stream and running tools are aborted, partial output kept. */
  abort(): void;
}
