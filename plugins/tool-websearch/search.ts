/** What WebSearch needs once configured: imported at start-up's ready when search is on (index.ts). */
export { jsonBackend } from './json-backend.js';
export { filterHits, formatHits } from './results.js';
