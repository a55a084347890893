import { mkdir } from 'node:fs/promises';

/** Private to the user: sessions, logs and settings hold code, prompts and tool output. */
export const PRIVATE_FILE_MODE = 0o600;
/** Private to the user: directories holding sessions and logs. */
export const PRIVATE_DIR_MODE = 0o700;

/** Creates a directory (and parents) readable by the user only. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}
