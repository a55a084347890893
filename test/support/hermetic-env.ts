// Runs before every test file (vitest setupFiles): in-process kernels read the user's directories
// from the environment, so each file gets a temp home. No test reads the developer's own config or
// leaves sessions, audit logs or locks in their data directory.
import { join } from 'node:path';
import { tempDir } from './project.js';

const home = tempDir('assistant-home-');
Object.assign(process.env, {
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
  XDG_DATA_HOME: join(home, '.local', 'share'),
  XDG_CACHE_HOME: join(home, '.cache'),
  ASSISTANT_CONFIG_DIR: join(home, '.config', 'assistant'),
  ASSISTANT_DATA_DIR: join(home, '.local', 'share', 'assistant'),
});
