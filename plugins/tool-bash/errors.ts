import { defineErrorCodes } from '../../core/index.js';

/** The error codes of Bash and its sandbox: registered through the plugin's `errors`, documented in docs/errors.md. */
export const BASH_ERRORS = defineErrorCodes({
  ASSISTANT_SANDBOX_CONTROL_FILE: { exit: 1, text: "A sandboxed Bash command created, changed or removed one of the agent's control files (config, `.assistant/`, `.mcp.json`, git hooks or config); the change was undone and the result says which." },
  ASSISTANT_SANDBOX_UNAVAILABLE: { exit: 1, text: '`sandbox: required`, but no OS sandbox can run here (bubblewrap missing or namespaces forbidden); no command was run.' },
});
