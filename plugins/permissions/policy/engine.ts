/**
 * The permission engine: what judging a call needs and starting the CLI does not (request facts,
 * the shell parser and its command specs, path scans). Imported on the first decision, through
 * `permissionEngine` (lazy.ts), never at start: a one-shot answer that calls no tool never loads it.
 */
export { gatherFacts } from './facts.js';
export { analyzeShellSync } from './shell/analyze.js';
export { isSafeCommand } from './safety.js';
export { isWithin } from './paths/resolve.js';
