import { defineErrorCodes } from '../../core/index.js';

/** The error codes of `assistant serve`: registered through the plugin's `errors`, documented in docs/errors.md. */
export const SERVE_ERRORS = defineErrorCodes({
  ASSISTANT_SERVE_BIND_REFUSED: { exit: 2, text: '`assistant serve --host` named an address other than the loopback without `--allow-remote`; the server stays on 127.0.0.1 unless you ask for it explicitly.' },
  ASSISTANT_SERVE_UNAUTHORIZED: { exit: 1, text: 'A request to `assistant serve` carried no valid token (bearer header or login cookie); answered with HTTP 401.' },
  ASSISTANT_SERVE_ORIGIN_REFUSED: { exit: 1, text: "A request to `assistant serve` came from another web page (its Origin is not the server's own) or named another Host (DNS rebinding); answered with HTTP 403." },
  ASSISTANT_SERVE_BAD_REQUEST: { exit: 1, text: 'A request to `assistant serve` was malformed: not JSON, a missing or wrong field, or an unknown route; answered with HTTP 400 or 404.' },
  ASSISTANT_SERVE_TOO_LARGE: { exit: 1, text: 'A request body to `assistant serve` was larger than the limit (256 KiB); answered with HTTP 413.' },
  ASSISTANT_SERVE_SESSION_BUSY: { exit: 1, text: 'A prompt was sent to a served session that is still working on one; interrupt it or wait (HTTP 409).' },
  ASSISTANT_SERVE_NOT_ATTACHED: { exit: 1, text: 'A prompt, interrupt or event stream named a session this server has not attached; attach it first (HTTP 409).' },
  ASSISTANT_SERVE_LEASE_LOST: { exit: 1, text: 'Another surface took the session over; this server no longer accepts prompts for it (HTTP 409). Attach it again with take_over to take it back.' },
  ASSISTANT_SERVE_TOO_MANY_SESSIONS: { exit: 1, text: 'The server already drives as many sessions as it allows at once (8); close one first (HTTP 429).' },
});
