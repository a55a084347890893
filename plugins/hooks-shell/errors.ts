import { defineErrorCodes } from '../../core/index.js';

/** The error codes of shell hooks: registered through the plugin's `errors`, documented in docs/errors.md. */
export const HOOKS_SHELL_ERRORS = defineErrorCodes({
ASSISTANT_HOOK_BLOCKED: { exit: 1, text: 'A shell hook (`hooks` in .assistantrc) blocked a tool call or a prompt; the message gives its reason.' },
  ASSISTANT_HOOK_COMMAND_FAILED: { exit: 1, text: 'A shell hook command failed (an exit status other than 0 or 2, a timeout, not executable, an unreadable answer); reported, and the run goes on.' },
});
