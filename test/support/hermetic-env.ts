// Runs before every test file (vitest setupFiles): in-process kernels read the user's directories
// from the environment, so each file gets a temp home. No test reads the developer's own config or
// leaves sessions, audit logs or locks in their data directory.
import { tempDir, userDirsUnder } from './project.js';

Object.assign(process.env, userDirsUnder(tempDir('assistant-home-')));
