import { defineErrorCodes } from '../../core/index.js';

/** The error codes of `assistant acp`, sent to the editor as JSON-RPC errors (`data.code`); documented in docs/errors.md. */
export const SURFACE_ACP_ERRORS = defineErrorCodes({
  ASSISTANT_ACP_CWD_OUTSIDE: { exit: 2, text: 'An editor asked for a session in a directory outside the project `assistant acp` was started in; start the agent in that project.' },
  ASSISTANT_ACP_SESSION_UNKNOWN: { exit: 2, text: 'An editor named a session that is not open on this ACP connection (open it with session/new or session/load first), or that no store holds.' },
  ASSISTANT_ACP_MODE_REFUSED: { exit: 2, text: 'An editor asked for a permission mode that is not offered: an unknown one, or `bypass` in a session that did not start in it.' },
  ASSISTANT_ACP_LEASE_LOST: { exit: 1, text: 'Another surface (a terminal, the web UI, another editor) took the session over; the editor is told where it went on its next prompt. Load the session again once it is closed there.' },
  ASSISTANT_ACP_BUSY: { exit: 1, text: 'An editor sent a prompt to a session still working on another one; cancel it first (session/cancel).' },
});
