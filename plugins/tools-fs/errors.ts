import { defineErrorCodes } from '../../core/index.js';

/** The error codes of the file tools: registered through the plugin's `errors`, documented in docs/errors.md. */
export const TOOLS_FS_ERRORS = defineErrorCodes({
  ASSISTANT_TOOL_PATH_REFUSED: { exit: 1, text: 'A file tool refused what it actually opened: a secret, a file outside the project, a hard link or a symlink loop.' },
  ASSISTANT_TOOL_INPUT_TOO_LARGE: { exit: 1, text: 'A Write or Edit carried more content than the tools-fs maxWriteBytes limit (10 MiB by default); nothing was written.' },
});
