/**
 * Helpers for session store plugins (`<pkg>/kits/store`): durable JSONL files, atomic writes and locks' liveness,
 * a per-key queue, summaries and pruning, and the session event reducer stores build snapshots with.
 */
export { openJsonlAppender, readJsonl, parseJsonl, type JsonlAppender, type JsonlContents } from './durable-file.js';
// The file helpers every store needs, from the fs kit (kept here so store plugins need one import).
export { writeFileAtomic, writeFileAtomicSync, ensurePrivateDir, processAlive, PRIVATE_FILE_MODE, PRIVATE_DIR_MODE, type AtomicWriteOptions } from '../fs/index.js';
export { keyedQueue, sessionSummary, pruneSessions } from './store-kit.js';
export { ago, summaryLine } from './session-format.js';
export { applySessionEvent, emptySnapshot, snapshotFromEvents, titleFromPrompt, danglingToolResults, resumeEvent } from './session-events.js';
export { ownerAlive, processStartTicks } from './owner-alive.js';
// How a refusal names the surface holding a session's lease (stores word ASSISTANT_SESSION_IN_USE with it).
export { describeHolder } from './describe-holder.js';
