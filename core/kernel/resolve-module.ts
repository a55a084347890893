import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** True when a plugin spec is a path rather than a package name. */
export function isPathSpec(spec: string): boolean {
  return spec.startsWith('.') || spec.startsWith('file:') || isAbsolute(spec) || /^[a-zA-Z]:[\\/]/.test(spec);
}

const CONDITIONS = ['import', 'node', 'default'];

function pickTarget(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  if (Array.isArray(entry)) {
    for (const e of entry) {
      const t = pickTarget(e);
      if (t) return t;
    }
    return undefined;
  }
  if (entry && typeof entry === 'object') {
    for (const [key, value] of Object.entries(entry)) {
      if (CONDITIONS.includes(key)) {
        const t = pickTarget(value);
        if (t) return t;
      }
    }
  }
  return undefined;
}

function exportsTarget(exportsField: unknown, subpath: string): string | undefined {
  if (exportsField === undefined || exportsField === null) return undefined;
  const isSubpathMap =
    typeof exportsField === 'object' && !Array.isArray(exportsField) && Object.keys(exportsField).some((k) => k.startsWith('.'));
  if (!isSubpathMap) return subpath === '.' ? pickTarget(exportsField) : undefined;
  const map = exportsField as Record<string, unknown>;
  if (subpath in map) return pickTarget(map[subpath]);
  for (const [key, value] of Object.entries(map)) {
    const star = key.indexOf('*');
    if (star < 0) continue;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    if (subpath.startsWith(prefix) && subpath.endsWith(suffix)) {
      const target = pickTarget(value);
      return target?.replace('*', subpath.slice(prefix.length, subpath.length - suffix.length));
    }
  }
  return undefined;
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
 * (package `exports` with import/node/default conditions, then `main`, then index.js).
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
      const pkg = JSON.parse(readFileSync(pkgJson, 'utf8')) as { exports?: unknown; main?: string };
      const target = exportsTarget(pkg.exports, subpath);
      if (target) return resolveFileOrDirectory(join(pkgDir, target));
      if (pkg.exports !== undefined) return undefined;
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
  if (existsSync(path) && statSync(path).isFile()) return path;
  for (const ext of ['.js', '.mjs', '.cjs']) if (existsSync(path + ext)) return path + ext;
  const pkgJson = join(path, 'package.json');
  if (existsSync(pkgJson)) {
    const pkg = JSON.parse(readFileSync(pkgJson, 'utf8')) as { exports?: unknown; main?: string };
    const target = exportsTarget(pkg.exports, '.') ?? pkg.main;
    if (target) return resolveFileOrDirectory(join(path, target));
  }
  for (const index of ['index.js', 'index.mjs']) if (existsSync(join(path, index))) return join(path, index);
  return undefined;
}
