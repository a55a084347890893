import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { userDirs } from '../util/paths.js';

/**
 * Control files: files that steer the agent itself (its config, its permission settings, what it
 * starts, what git runs on the user's behalf). A command or an edit that rewrites one could widen
 * what the agent may do, so the sandbox mounts them read-only and the permission policy asks
 * before an edit of one. The kernel declares its own; a plugin declares the files it reads
 * (`.mcp.json`, memory files) through `kernel.controlFiles.declare`.
 */
export interface ControlFile {
  /** Relative to the project root, or absolute (the user's config directory). */
  path: string;
  /** Why writing it matters, for people: "assistant's configuration". */
  why: string;
  /** A folder: everything below it counts. */
  dir?: boolean;
  /** Searched in every directory from the working directory up to the project root (config, memory files). */
  searched?: boolean;
  /** Counts only while the file (JSON) has this top-level key: package.json with an `assistant` key. */
  whileKey?: string;
  /** The plugin that declared it (`kernel` for the kernel's own). */
  declaredBy?: string;
}

/** One control file located on disk for a project (it may not exist yet). */
export interface ControlPath {
  /** Absolute, as declared (not resolved through symlinks). */
  path: string;
  /** Why writing it matters, for people. */
  why: string;
  /** A folder: everything below it counts. */
  dir: boolean;
  /** Set on a file listed by `paths(..., { pending: true })` that lacks this key now: it becomes a control file by gaining it. */
  whileKey?: string;
}

/** What `paths` lists besides the control files of now. */
export interface ControlPathOptions {
  /** Also files that count only while they have a key and lack it now (package.json without `assistant`): a command could add it. */
  pending?: boolean;
}

/** The registry of control files on a kernel. */
export interface ControlFiles {
  /** Adds a control file; plugins declare the files they read that change what the agent does. */
  declare(file: ControlFile): void;
  /** Everything declared, in order. */
  list(): readonly ControlFile[];
  /** The control paths of a project, for directories from `cwd` up to `projectRoot`; files with `whileKey` only while they have the key. */
  paths(projectRoot: string, cwd?: string, options?: ControlPathOptions): ControlPath[];
  /** Why `absolute` (resolved) is a control file of the project, or undefined when it is not one; matched without regard to case. */
  reason(absolute: string, projectRoot: string, cwd?: string): string | undefined;
}

/** File names the config loader searches in each directory, first match wins (package.json only with an `assistant` key). */
export const PROJECT_CONFIG_FILES = [
  'package.json',
  '.assistantrc',
  '.assistantrc.json',
  '.assistantrc.yaml',
  '.assistantrc.yml',
  '.assistantrc.js',
  '.assistantrc.mjs',
  '.assistantrc.cjs',
  'assistant.config.js',
  'assistant.config.mjs',
  'assistant.config.cjs',
];

/** The kernel's own control files: its config, its settings folder, what git runs, the user's config and data. */
function kernelControlFiles(env: NodeJS.ProcessEnv): ControlFile[] {
  const dirs = userDirs(env);
  return [
    ...PROJECT_CONFIG_FILES.map((name) => ({
      path: name,
      why: "assistant's configuration",
      searched: true,
      ...(name === 'package.json' ? { whileKey: 'assistant' } : {}),
    })),
    { path: '.assistant', why: "assistant's project settings (.assistant/)", dir: true },
    { path: '.git/hooks', why: 'git hooks run programs on every commit', dir: true },
    { path: '.git/config', why: 'git configuration can run programs (core.fsmonitor, aliases, filters)' },
    { path: '.git/config.worktree', why: 'git configuration can run programs (core.fsmonitor, aliases, filters)' },
    { path: '.gitmodules', why: 'git submodule configuration' },
    { path: dirs.config, why: "the user's assistant configuration", dir: true },
    { path: dirs.data, why: "assistant's sessions and permission grants", dir: true },
    { path: dirs.cache, why: "assistant's caches", dir: true },
  ].map((file) => ({ ...file, declaredBy: 'kernel' }));
}

function hasKey(file: string, key: string): boolean {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return !!value && typeof value === 'object' && Object.prototype.hasOwnProperty.call(value, key);
  } catch {
    // Unreadable or not JSON: the loader would not take config from it either.
    return false;
  }
}

/** `core.hooksPath` of the project's git config, resolved from the project root (where git runs hooks), when set. */
function configuredHooksPath(root: string): string | undefined {
  for (const name of ['.git/config', '.git/config.worktree']) {
    let text: string;
    try {
      text = readFileSync(join(root, name), 'utf8');
    } catch {
      continue;
    }
    // The last assignment wins in git; a key in another section named hooksPath is rare enough to over-protect.
    const values = [...text.matchAll(/^\s*hookspath\s*=\s*("?)(.*?)\1\s*$/gim)].map((m) => m[2]!.trim());
    const value = values.at(-1);
    if (value) return resolve(root, value.startsWith('~/') ? join(process.env.HOME ?? '', value.slice(2)) : value);
  }
  return undefined;
}

/** The directories from `cwd` up to `root` (both included); just `root` when `cwd` is outside it. */
function searchedDirs(root: string, cwd: string): string[] {
  const rel = relative(root, cwd);
  if (rel.startsWith('..') || isAbsolute(rel)) return [root];
  const dirs: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    dirs.push(dir);
    if (dir === root || dirname(dir) === dir) break;
  }
  return dirs;
}

const within = (path: string, root: string) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

/** Creates the registry, with the kernel's own control files declared. */
export function createControlFiles(env: NodeJS.ProcessEnv = process.env): ControlFiles {
  const declared: ControlFile[] = kernelControlFiles(env);
  const registry: ControlFiles = {
    declare(file) {
      declared.push({ ...file });
    },
    list: () => declared,
    paths(projectRoot, cwd = projectRoot, options = {}) {
      const root = resolve(projectRoot);
      const out: ControlPath[] = [];
      const seen = new Set<string>();
      for (const file of declared) {
        const bases = isAbsolute(file.path) ? [''] : file.searched ? searchedDirs(root, resolve(cwd)) : [root];
        for (const base of bases) {
          const path = base ? join(base, file.path) : file.path;
          if (seen.has(path)) continue;
          const pending = !!file.whileKey && !hasKey(path, file.whileKey);
          if (pending && !options.pending) continue;
          seen.add(path);
          out.push({ path, why: file.why, dir: !!file.dir, ...(pending ? { whileKey: file.whileKey } : {}) });
        }
      }
      // Hooks git runs from elsewhere (husky's `.husky/`): as much a control folder as `.git/hooks`.
      const hooksPath = configuredHooksPath(root);
      if (hooksPath && !seen.has(hooksPath)) out.push({ path: hooksPath, why: 'git hooks (core.hooksPath) run programs on every commit', dir: true });
      return out;
    },
    reason(absolute, projectRoot, cwd) {
      // Without regard to case: on macOS and Windows `.ASSISTANTRC` is the same file as `.assistantrc`.
      const path = absolute.toLowerCase();
      for (const control of registry.paths(projectRoot, cwd)) {
        const declared = control.path.toLowerCase();
        if (control.dir ? within(path, declared) : path === declared) return control.why;
      }
      return undefined;
    },
  };
  return registry;
}
