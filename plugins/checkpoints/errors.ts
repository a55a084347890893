import { defineErrorCodes } from '../../core/index.js';

/** The error codes of checkpoints and rewind: registered through the plugin's `errors`, documented in docs/errors.md. */
export const CHECKPOINT_ERRORS = defineErrorCodes({
  ASSISTANT_REWIND_NO_PROMPT: { exit: 2, text: 'A rewind named a prompt the session does not have (prompts are numbered from 1, as `/rewind` lists them).' },
  ASSISTANT_REWIND_CONFLICT: { exit: 1, text: 'Files the rewind would restore were changed after the agent last wrote them; nothing was restored. They are listed: confirm (`--force`, or `/rewind <n> … force`) to overwrite them.' },
  ASSISTANT_REWIND_UNSAFE: { exit: 1, text: 'A rewind would write outside the project (a symlink, a path leading elsewhere) or the session belongs to another project; nothing was restored.' },
  ASSISTANT_CHECKPOINT_CORRUPT: { exit: 1, text: "A checkpoint's stored content is missing or does not match its hash; nothing was restored." },
  ASSISTANT_CHECKPOINT_FAILED: { exit: 1, text: "A file's content could not be saved before a tool changed it (the session store failed); the change was refused." },
});
