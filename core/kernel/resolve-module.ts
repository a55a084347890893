import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exports as resolveExports, type Exports } from 'resolve.exports';

/** True when a plugin spec is a path rather than a package name. */
export function isPathSpec(spec: string): boolean {
  return spec.startsWith('.') || spec.startsWith('file:') || isAbsolute(spec) || /^[a-zA-Z]:[\\/]/.test(spec);
}

/** What `import` matches in a package's `exports`, in Node's terms (`default` is always on). */
const IMPORT_CONDITIONS = { conditions: ['node', 'import'], unsafe: true } as const;

/**
 * The files a package's `exports` maps `subpath` to, best first: `[]` when it maps nothing
 * (no such subpath, or none of our conditions), undefined when the package has no `exports`.
 */
function exportsTargets(pkg: PackageJson, subpath: string): string[] | undefined {
  if (pkg.exports === undefined || pkg.exports === null) return undefined;
  try {
    return resolveExports(pkg, subpath, IMPORT_CONDITIONS) ?? [];
  } catch {
    // resolve.exports throws for a subpath the map does not name: that package does not export it.
    return [];
  }
}

/**
 * A target inside the package, as Node requires: relative (`./`), with no `..` or `node_modules`
 * segment, so neither a crafted spec (`pkg/../../x` through a `./*` pattern) nor a crafted map
 * (`"../../etc"`) reaches a file outside the package.
 */
function insidePackage(pkgDir: string, target: string): string | undefined {
  if (!target.startsWith('./')) return undefined;
  if (target.split(/[\\/]/).some((segment) => segment === '..' || segment === 'node_modules')) return undefined;
  const path = resolve(pkgDir, target);
  const rel = relative(pkgDir, path);
  return rel.startsWith('..') || isAbsolute(rel) ? undefined : path;
}

/** The first of a package's export targets that is a file (exact: Node adds no extension to one). */
function firstExportedFile(pkgDir: string, targets: string[]): string | undefined {
  for (const target of targets) {
    const path = insidePackage(pkgDir, target);
    if (path && isFile(path)) return path;
  }
  return undefined;
}

function isFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false; // a file on the way (ENOTDIR) or no access: nothing to load there, as existsSync says
  }
}

type PackageJson = { name?: string; exports?: Exports | null; main?: string };

function readPackageJson(file: string): PackageJson {
  return JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
}

function splitPackageName(spec: string): [string, string] {
  const parts = spec.split('/');
  const nameLength = spec.startsWith('@') ? 2 : 1;
  const name = parts.slice(0, nameLength).join('/');
  const rest = parts.slice(nameLength).join('/');
  return [name, rest ? `./${rest}` : '.'];
}

/**
 * Resolves a plugin spec to a file, the way `import` would from a file in `baseDir`:
 * paths relative to `baseDir`; package names through node_modules up from `baseDir`
 * (package `exports` with the node/import/default conditions, Node's subpath patterns and
 * fallback arrays; `main` or index.js only for a package without `exports`).
 * Returns undefined when nothing matches.
 */
export function resolveModule(spec: string, baseDir: string): string | undefined {
  if (isPathSpec(spec)) {
    const path = spec.startsWith('file:') ? fileURLToPath(spec) : resolve(baseDir, spec);
    return resolveFileOrDirectory(path);
  }
  const [name, subpath] = splitPackageName(spec);
  for (let dir = resolve(baseDir); ; dir = dirname(dir)) {
    const pkgDir = join(dir, 'node_modules', name);
    const pkgJson = join(pkgDir, 'package.json');
    if (existsSync(pkgJson)) {
      const pkg = readPackageJson(pkgJson);
      const targets = exportsTargets(pkg, subpath);
      // A package with `exports` exposes only what they name: no fallback to `main` or to its files.
      if (targets) return firstExportedFile(pkgDir, targets);
      return resolveFileOrDirectory(subpath === '.' ? join(pkgDir, pkg.main ?? 'index.js') : join(pkgDir, subpath));
    }
    if (dirname(dir) === dir) break;
  }
  try {
    // Last resort: CommonJS resolution (covers NODE_PATH and unusual layouts).
    return createRequire(join(baseDir, 'noop.js')).resolve(spec);
  } catch {
    return undefined;
  }
}

function resolveFileOrDirectory(path: string): string | undefined {
  if (isFile(path)) return path;
  for (const ext of ['.js', '.mjs', '.cjs']) if (existsSync(path + ext)) return path + ext;
  const pkgJson = join(path, 'package.json');
  if (existsSync(pkgJson)) {
    const pkg = readPackageJson(pkgJson);
    const exported = firstExportedFile(path, exportsTargets(pkg, '.') ?? []);
    if (exported) return exported;
    if (pkg.main) return resolveFileOrDirectory(join(path, pkg.main));
  }
  for (const index of ['index.js', 'index.mjs']) if (existsSync(join(path, index))) return join(path, index);
  return undefined;
}
