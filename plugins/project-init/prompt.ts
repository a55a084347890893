import { readFileSync } from 'node:fs';
import type { ProjectFile } from './manifests.js';

/** The instructions of `/init`, read on first use (importing a plugin does no I/O). */
const template = () => readFileSync(new URL('./init-prompt.txt', import.meta.url), 'utf8');

/** What the prompt is built from. */
export interface InitPromptInput {
  /** Absolute path of the AGENTS.md to write. */
  target: string;
  /** AGENTS.md is there already: improve it rather than start over. */
  exists: boolean;
  /** The project's manifests and instruction files. */
  files: ProjectFile[];
  /** Anything the user typed after `/init`. */
  extra?: string;
}

/** A file as a fenced block the model cannot mistake for the end of it (the fence outgrows any run of backticks inside). */
function block(file: ProjectFile): string {
  const longest = Math.max(2, ...[...file.text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `\n--- ${file.path}${file.truncated ? ' (cut)' : ''}\n${fence}\n${file.text.replace(/\s+$/, '')}\n${fence}`;
}

/** The prompt `/init` and `assistant init` send: instructions, the user's additions, then the project's files. */
export function initPrompt(input: InitPromptInput): string {
  const existing = input.exists
    ? `${input.target} already exists: read it first, keep what is still true, correct what is not and add what is missing. Do not start over.`
    : `There is no AGENTS.md yet: create it.`;
  const extra = input.extra?.trim() ? `\nThe user adds: ${input.extra.trim()}\n` : '';
  const files = input.files.length ? input.files.map(block).join('\n') : '\n(none found at the project root: look around with your tools)';
  return template()
    .replace('{{target}}', () => input.target)
    .replace('{{existing}}', () => existing)
    .replace('{{extra}}', () => extra)
    .replace('{{files}}', () => files)
    .trim();
}
