import { defineErrorCodes } from '../../core/index.js';

/**
 * The permission policy's error codes, owned by the `permissions` plugin (the base every layer
 * judges with: rules are parsed, and the engine and shell parser are loaded, through its shared policy).
 * Documented in docs/errors.md.
 */
export const PERMISSION_ERRORS = defineErrorCodes({
  ASSISTANT_PERMISSION_RULE_INVALID: { exit: 2, text: 'A permission rule (`permissions.allow/ask/deny` or the local settings file) cannot be read.' },
  ASSISTANT_PERMISSION_PARSER_FAILED: { exit: 1, text: 'The shell parser could not be loaded, so shell commands cannot be judged (they are denied).' },
  ASSISTANT_PERMISSION_ENGINE_FAILED: { exit: 1, text: 'A module of the permission engine (loaded at the first decision) could not be imported, so every call it would judge is denied, in any mode.' },
});
