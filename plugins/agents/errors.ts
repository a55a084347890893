import { defineErrorCodes } from '../../core/index.js';

/** The error codes of sub-agents: registered through the plugin's `errors`, documented in docs/errors.md. */
export const AGENTS_ERRORS = defineErrorCodes({
  ASSISTANT_AGENT_UNKNOWN: { exit: 1, text: 'The Task tool was asked for an agent type that neither the `agents` config key nor an agent file defines.' },
  ASSISTANT_AGENT_DEFINITION_INVALID: { exit: 2, text: 'An agent file (`.assistant/agents/*.md`) has unreadable front matter or lacks a description or prompt; it is skipped, the other types still load.' },
  ASSISTANT_AGENT_DEPTH: { exit: 1, text: 'A sub-agent tried to start sub-agents nested deeper than allowed.' },
});
