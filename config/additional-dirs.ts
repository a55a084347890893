import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { realAddedDirectories } from '../core/kits/fs/index.js';
import type { ConfigLayer } from './layers.js';

/**
 * `permissions.additionalDirectories` of a layer made absolute before the layers merge: a relative
 * entry means relative to the file that wrote it (the working directory for `--add-dir`), and `~/`
 * to the home directory. Entries that are not strings are left for the schema to refuse.
 */
export function absoluteDirectories(layer: ConfigLayer): ConfigLayer {
  const dirs = layer.values.permissions?.additionalDirectories;
  if (!Array.isArray(dirs)) return layer;
  const home = process.env.HOME || homedir();
  const absolute = dirs.map((dir: unknown) => {
    if (typeof dir !== 'string' || !dir) return dir;
    if (dir === '~' || dir.startsWith('~/')) return join(home, dir.slice(1));
    return isAbsolute(dir) ? resolve(dir) : resolve(layer.baseDir, dir);
  });
  // Checked here too (they exist, are folders, are not / or a system or home folder) so a bad entry is a config error naming its file.
  realAddedDirectories(absolute, undefined, layer.source === 'flags' ? '--add-dir' : layer.source);
  return { ...layer, values: { ...layer.values, permissions: { ...layer.values.permissions, additionalDirectories: absolute } } };
}
