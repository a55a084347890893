// Packs the package and example plugins with npm and installs them into a temp project, offline,
// from the local tarballs only. The project lives under this repository's node_modules/.cache, so
// the package's own dependencies resolve from our node_modules (as if npm had installed them) and
// no registry is asked for anything; test/kernel/public-api.test.ts checks that `dependencies`
// lists every package the build imports.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The TypeScript compiler of this repository: the example packages are built with it. */
export const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

/** A fresh project directory for packed installs (symlinks resolved, as the CLI reports paths); `remove` deletes it. */
export function packedProject(): { dir: string; remove(): void } {
  const home = join(ROOT, 'node_modules/.cache/assistant-packed');
  mkdirSync(home, { recursive: true });
  const dir = realpathSync(mkdtempSync(join(home, 'project-')));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs npm quietly in `cwd`; a failure carries npm's output. */
export async function npm(args: string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm ${args.join(' ')} failed in ${cwd}:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

/** Runs tsc with `args`; resolves with its output and exit code rather than throwing. */
export async function tsc(args: string[], cwd: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run(process.execPath, [TSC, ...args], { cwd, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, output: stdout };
  } catch (error) {
    const { stdout, stderr, code } = error as { stdout?: string; stderr?: string; code?: number };
    return { code: typeof code === 'number' ? code : 1, output: `${stdout ?? ''}${stderr ?? ''}` };
  }
}

/** `npm pack` of the package in `dir` into `dest`; returns the tarball's file name. Scripts are not run: build first. */
export async function pack(dir: string, dest: string): Promise<string> {
  const out = await npm(['pack', '--ignore-scripts', '--pack-destination', dest], dir);
  return out.trim().split('\n').pop()!;
}

/**
 * Makes `project` a package that depends on our tarball, locked so `npm ci --offline` installs it
 * from the file alone (its dependencies are left to resolve from the repository's node_modules).
 */
export function lockOurTarball(project: string, tarball: string): void {
  const spec = `file:${tarball}`;
  const integrity = `sha512-${createHash('sha512').update(readFileSync(join(project, tarball))).digest('base64')}`;
  const { name, version, bin } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; bin: Record<string, string> };
  const packages = {
    '': { name: 'packed-project', dependencies: { [name]: spec } },
    // `npm ci` links node_modules/.bin from the lock file's `bin`, not the package's.
    [`node_modules/${name}`]: { version, resolved: spec, integrity, bin },
  };
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'packed-project', private: true, type: 'module', dependencies: { [name]: spec } }, null, 2));
  writeFileSync(join(project, 'package-lock.json'), JSON.stringify({ name: 'packed-project', lockfileVersion: 3, requires: true, packages }, null, 2));
}

/** Copies an example's package sources (no tests, no build output) to `dest`. */
export function copyExample(name: string, dest: string): void {
  for (const entry of ['package.json', 'tsconfig.json', 'README.md', 'src'])
    cpSync(join(ROOT, 'examples', name, entry), join(dest, entry), { recursive: true });
}
