import { defineErrorCodes } from '../../core/index.js';

/** WebSearch's error codes: registered through the plugin's `errors`, documented in docs/errors.md. */
export const WEBSEARCH_ERRORS = defineErrorCodes({
  ASSISTANT_WEBSEARCH_BACKEND_INVALID: { exit: 2, text: '`webSearch.backend` names a module that cannot be loaded or exports no `search` function.' },
  ASSISTANT_WEBSEARCH_FAILED: { exit: 1, text: 'The search backend failed: the API could not be reached, refused the request (no key, bad key, quota), or answered something that is not a result list.' },
});
