import { defineErrorCodes } from '../../core/index.js';

/** The error codes of replay: registered through the plugin's `errors`, documented in docs/errors.md. */
export const REPLAY_ERRORS = defineErrorCodes({
  ASSISTANT_REPLAY_NO_RECORDING: { exit: 2, text: 'The session to replay was not recorded (`--record` or `persistence.record`).' },
  ASSISTANT_REPLAY_EXHAUSTED: { exit: 1, text: 'The replayed run asked the model more than the recording answered.' },
});
