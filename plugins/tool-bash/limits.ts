/** Default time limit of one command. */
export const DEFAULT_TIMEOUT_MS = 120_000;
/** The largest time limit a command may ask for. */
export const MAX_TIMEOUT_MS = 600_000;
