/**
 * Helpers for session store plugins (`<pkg>/kits/store`): durable JSONL files and atomic writes,
 * a per-key queue, summaries and pruning, and the session event reducer stores build snapshots with.
 */
export {
  writeFileAtomic,
  openJsonlAppender,
  readJsonl,
  parseJsonl,
  ensurePrivateDir,
  PRIVATE_FILE_MODE,
  PRIVATE_DIR_MODE,
  type JsonlAppender,
  type JsonlContents,
} from './durable-file.js';
export { keyedQueue, sessionSummary, pruneSessions } from './store-kit.js';
export { ago, summaryLine } from './session-format.js';
export { applySessionEvent, emptySnapshot, snapshotFromEvents, titleFromPrompt, danglingToolResults } from '../../agent/session-events.js';
export { ownerAlive, processStartTicks } from './owner-alive.js';
