import { defineErrorCodes } from '../../core/index.js';

/** The error codes of compaction: registered through the plugin's `errors`, documented in docs/errors.md. */
export const COMPACTION_ERRORS = defineErrorCodes({
  ASSISTANT_CONTEXT_COMPACTION_FAILED: { exit: 1, text: 'Compacting the history failed (the summary call failed and nothing smaller fits); the history is unchanged.' },
});
