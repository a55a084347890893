/** What `assistant replay` needs: imported when it runs (index.ts). */
export { replaySession } from './replayer.js';
export { fromJson } from './recording.js';
