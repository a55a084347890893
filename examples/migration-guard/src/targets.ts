import { resolve, sep } from 'node:path';
import { isInside, realPath, type PermissionRequest } from '@assistant-cli/assistant';

/** A guarded directory a call would touch, and how, in words for the denial. */
export interface GuardedTarget {
  directory: string;
  /** `db/migrations/001.sql is under migrations/`, or `` the command `rm -r migrations` refers to migrations/ ``. */
  why: string;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Categories whose paths are written (`other`: a tool that may change things, or one whose lock set writes files). */
const WRITES = new Set(['edit', 'other']);

/**
 * The first guarded target of a call. File writes: each path (from the tool's lock set) is resolved
 * (symlinks too) and checked for a guarded directory among its folders inside the project; a call
 * that may write files it does not name (`unbounded`) could write there too. Shell commands: any
 * mention of a guarded directory as a path counts, since a command's effects cannot be told from
 * its text alone.
 */
export function guardedTarget(request: PermissionRequest, directories: readonly string[], guardShell: boolean): GuardedTarget | undefined {
  if (request.unbounded === 'write' && directories.length)
    return { directory: directories[0]!, why: `${request.tool} may write files it does not name, ${directories[0]}/ included` };
  if (WRITES.has(request.category)) {
    const root = realPath(request.projectRoot);
    for (const path of request.paths) {
      const real = realPath(resolve(request.cwd, path));
      if (!isInside(real, root)) continue; // outside the project is the built-in policy's business
      const folders = real.slice(root.length + 1).split(sep).slice(0, -1);
      const directory = directories.find((d) => folders.includes(d));
      if (directory) return { directory, why: `${path} is under ${directory}/` };
    }
  }
  if (request.category === 'execute' && guardShell && request.command) {
    for (const directory of directories)
      if (new RegExp(`(^|[^\\w.-])${escape(directory)}(/|$|[^\\w.-])`).test(request.command)) return { directory, why: `the command \`${request.command}\` refers to ${directory}/` };
  }
  return undefined;
}
