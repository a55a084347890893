import { homedir } from 'node:os';
import { join } from 'node:path';

/** The user's directories for assistant, following XDG on Linux and macOS and %APPDATA% on Windows. */
export interface UserDirs {
  /** Global config: `$ASSISTANT_CONFIG_DIR`, `$XDG_CONFIG_HOME/assistant` or `~/.config/assistant`. */
  config: string;
  /** Data (sessions, history): `$ASSISTANT_DATA_DIR`, `$XDG_DATA_HOME/assistant` or `~/.local/share/assistant`. */
  data: string;
  /** Caches: `$XDG_CACHE_HOME/assistant` or `~/.cache/assistant`. */
  cache: string;
}

/** Where assistant keeps the user's global config, data and caches. */
export function userDirs(env: NodeJS.ProcessEnv = process.env): UserDirs {
  const home = env.HOME || env.USERPROFILE || homedir();
  const windows = process.platform === 'win32';
  const appData = env.APPDATA || join(home, 'AppData', 'Roaming');
  const localAppData = env.LOCALAPPDATA || join(home, 'AppData', 'Local');
  return {
    config: env.ASSISTANT_CONFIG_DIR || (env.XDG_CONFIG_HOME ? join(env.XDG_CONFIG_HOME, 'assistant') : windows ? join(appData, 'assistant') : join(home, '.config', 'assistant')),
    data: env.ASSISTANT_DATA_DIR || (env.XDG_DATA_HOME ? join(env.XDG_DATA_HOME, 'assistant') : windows ? join(localAppData, 'assistant', 'data') : join(home, '.local', 'share', 'assistant')),
    cache: env.XDG_CACHE_HOME ? join(env.XDG_CACHE_HOME, 'assistant') : windows ? join(localAppData, 'assistant', 'cache') : join(home, '.cache', 'assistant'),
  };
}

/** A short stable hash of a project root, used to group per-project data. */
export function projectHash(projectRoot: string): string {
  // FNV-1a over the path, two rounds for 64 bits: stable across runs and platforms, no crypto import.
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ projectRoot.length;
  for (let i = 0; i < projectRoot.length; i++) {
    const c = projectRoot.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x85ebca6b) >>> 0;
  }
  return h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0');
}

/** Per-project data directory: `<data>/projects/<basename>-<hash>`. */
export function projectDataDir(projectRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  const base = projectRoot.split(/[\\/]/).filter(Boolean).pop() ?? 'root';
  return join(userDirs(env).data, 'projects', `${base.replace(/[^a-zA-Z0-9._-]/g, '_')}-${projectHash(projectRoot)}`);
}
