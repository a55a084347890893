import type { Kernel } from '../kernel/kernel-types.js';
import type { SessionState } from './session.js';
import type { UserMessage } from '../types/messages.js';
import type { LimitsConfig } from '../types/config.js';
import { sessionConversation } from './conversation.js';
import { runAgentLoop, type AgentLoopResult } from './loop.js';
import { createSteeringQueue } from './steering.js';

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

/** Creates the runner for the kernel's open session. */
export function createRunner(kernel: Kernel, session: SessionState): AgentRunner {
  const steering = createSteeringQueue();
  let controller: AbortController | undefined;
  return {
    session,
    get busy() {
      return controller !== undefined;
    },
    get queued() {
      return steering.size;
    },
    async run(prompt, options = {}) {
      if (controller) throw new Error('a prompt is already running; steer it or abort it first');
      controller = new AbortController();
      try {
        return await runAgentLoop(kernel, {
          conversation: sessionConversation(session),
          prompt,
          signal: controller.signal,
          // Read at each tool batch, so a mode switched in the UI applies from the next tool call.
          get mode() {
            return session.mode;
          },
          sessionId: session.info.id,
          steering,
          limits: options.limits,
          toolFilter: options.toolFilter,
          model: options.model,
        });
      } finally {
        controller = undefined;
      }
    },
    steer: (text) => steering.push(text),
    takeQueued: () => steering.drain(),
    abort() {
      controller?.abort();
    },
  };
}
