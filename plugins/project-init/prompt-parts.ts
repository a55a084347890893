/** What `/init` and `assistant init` build their prompt from: imported when one runs (index.ts). */
export { projectFiles } from './manifests.js';
export { initPrompt } from './prompt.js';
