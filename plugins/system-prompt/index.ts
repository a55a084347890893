import { readFileSync } from 'node:fs';
import { definePlugin, Stage, type SystemSection } from '../../core/index.js';
import { gitBranch } from './git-branch.js';
import { utcDate } from './utc-date.js';

/** The built-in instructions, read on first use (importing a plugin does no I/O). */
const basePrompt = () => readFileSync(new URL('./base-prompt.txt', import.meta.url), 'utf8').trim();

interface Options {
  /** Replaces the built-in instructions (the environment section is still added). */
  instructions?: string;
  /** Appended after the built-in instructions. */
  append?: string;
}

/**
 * The base system prompt: who the agent is, how it works, and where it runs. Built once per
 * process and kept byte-identical between requests so the prompt cache holds.
 */
export default definePlugin<Options>({
  name: 'system-prompt',
  version: '1.0.0',
  configKey: 'systemPrompt',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { instructions: { type: 'string', minLength: 1 }, append: { type: 'string' } },
  },
  apply(kernel, options) {
    let sections: SystemSection[] | undefined;
    const build = (): SystemSection[] => {
      const branch = gitBranch(kernel.projectRoot);
      const env = [
        `Working directory: ${kernel.cwd}`,
        `Project root: ${kernel.projectRoot}`,
        `Platform: ${process.platform} (${process.arch})`,
        `Shell: ${process.env.SHELL ?? (process.platform === 'win32' ? 'cmd.exe' : '/bin/sh')}`,
        branch ? `Git repository: yes (branch ${branch} at start)` : 'Git repository: no',
        `Date: ${utcDate(Date.now())}`,
      ].join('\n');
      const instructions = [options.instructions ?? basePrompt(), options.append].filter(Boolean).join('\n\n');
      return [
        { id: 'instructions', text: instructions },
        { id: 'environment', text: `<environment>\n${env}\n</environment>` },
      ];
    };
    kernel.hooks.systemPrompt.tap({ name: 'system-prompt', stage: Stage.FIRST }, (existing, reason) => {
      // Sub-agents bring their own instructions; they still get the environment.
      sections ??= build();
      return reason.agentId && existing.length ? [...existing, sections[1]!] : [...sections, ...existing];
    });
  },
});
