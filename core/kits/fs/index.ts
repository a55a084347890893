/**
 * File helpers for plugins (`<pkg>/kits/fs`): the one atomic, durable file write (temp file beside
 * it, fsync of file and directory, mode kept), user-private files and directories, whether a
 * process that left a file behind still runs, which files hold secrets (.env, keys, credentials),
 * and where PATH finds a program.
 */
export { writeFileAtomic, writeFileAtomicSync, type AtomicWriteOptions } from './atomic-write.js';
export { ensurePrivateDir, PRIVATE_FILE_MODE, PRIVATE_DIR_MODE } from './private.js';
export { processAlive } from './process-alive.js';
export { createSecretMatcher, secretContent, secretOptionsOf, DEFAULT_SECRET_ALLOW, type SecretOptions } from './secret-files.js';
export { realAddedDirectories, configuredAddedDirectories, addedDirectoriesOf, addDirectoryWhileRunning, directoriesAddedWhileRunning, onDirectoryAdded } from './added-dirs.js';
export { findOnPath } from './find-on-path.js';
export { secureRandomBytes, secureRandomHex, secureRandomUUID } from './secure-random.js';
