/**
 * The agent loop for plugins and embedders that drive runs themselves (`<pkg>/kits/agent`): sub-agents,
 * replays, front ends. Open a session, make a runner, run prompts.
 */
export type { SessionState, AgentRunner, RunOptions, AgentLoopResult } from '../../types/agent.js';
export { openSession, type OpenSessionOptions } from './session.js';
export { runAgentLoop, type AgentLoopOptions } from './loop.js';
export { createRunner } from './runner.js';
export { sessionConversation, memoryConversation, type Conversation } from './conversation.js';
export { createSteeringQueue, type SteeringQueue } from './steering.js';
// What `assistant [-p] <prompt>` does once its flags are parsed, for front ends that offer the same flags.
export { runFromFlags, EXIT_FOR, type RunFlags } from './cli-run.js';
export { openSessionForRun, resolveSessionId, type SessionFlags } from './session-for-run.js';
export { attachOutput, streamJsonLine, resultLine, usageSince, STREAM_JSON_VERSION, type OutputFormat, type StreamJsonEvent } from './headless-output.js';
// Surfaces other than the terminal (SDK, editors, web): prompts in, typed events out, approvals to a callback.
export { createSessionDriver, startDrivenSession, type SessionDriver, type SessionDriverOptions, type DrivenSessionOptions, type ApprovalHandler } from './session-driver.js';
export { kernelForSurface, type SurfaceKernelOptions } from './surface-kernel.js';
export { refuseMistypedCommand } from './mistyped-command.js';
// Hand-off between surfaces: which front end this process is (the lease records it), and noticing a session moved away.
export { setSurface } from '../../util/surface.js';
export { describeOwner, watchLease, type LeaseLoss, type LeaseWatch, type LeaseWatchOptions } from './lease-watch.js';
