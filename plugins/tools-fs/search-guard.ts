import { lstatSync, realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import { isInside } from '../../core/kits/tool/index.js';
import { refuseOpened, type Boundary, type Refusal } from './fs-guard.js';

/**
 * Checks a search root and the entries a walk finds under it (Glob): a secret, a symlink that
 * leads out or loops, a hard link or a name in a folder that is really elsewhere is withheld.
 */
export class EntryGuard {
  private readonly folders = new Map<string, string | undefined>();

  constructor(private readonly boundary: Boundary) {}

  /** Where the search root really is, or why it may not be searched. */
  static root(path: string, shown: string, boundary: Boundary): { real: string } | Refusal {
    let real: string;
    try {
      real = realpathSync.native(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') return { kind: 'symlink loop', reason: `${shown} is a loop of symlinks` };
      return { kind: 'missing', reason: `${shown} does not exist` };
    }
    const refusal = refuseOpened(real, shown, boundary);
    return refusal ?? { real };
  }

  private folder(dir: string): string | undefined {
    if (!this.folders.has(dir)) {
      let real: string | undefined;
      try {
        real = realpathSync.native(dir);
      } catch {
        real = undefined;
      }
      this.folders.set(dir, real);
    }
    return this.folders.get(dir);
  }

  /** Why `path` (a walked entry) is withheld, or undefined when it may be shown. */
  check(path: string, isSymlink: boolean): Refusal | undefined {
    const secret = this.boundary.isSecret(path);
    if (secret) return { kind: 'secret', reason: secret };
    // The folder the walk listed must really be inside (it may have been swapped for a link).
    const folder = this.folder(dirname(path));
    if (!folder || !isInside(folder, this.boundary.root)) return { kind: 'outside', reason: 'its folder is outside' };
    if (isSymlink) {
      let target: string;
      try {
        target = realpathSync.native(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ELOOP') return { kind: 'symlink loop', reason: 'a loop of symlinks' };
        return undefined; // A dangling link names nothing readable.
      }
      return refuseOpened(target, path, this.boundary);
    }
    try {
      const stats = lstatSync(path);
      if (stats.isFile() && stats.nlink > 1) return { kind: 'hard link', reason: `${stats.nlink} hard links` };
    } catch {
      return { kind: 'missing', reason: 'gone' };
    }
    return undefined;
  }
}
