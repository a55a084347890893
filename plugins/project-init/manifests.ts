import { closeSync, constants, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Files that tell how a project is built, tested, linted and laid out, read for `/init` from the
 * project root: manifests and build files, CI workflows, and the instructions other agents keep.
 * Only regular files are read, never through a symlink (a link could lead out of the project).
 */
const MANIFESTS = [
  'package.json', 'pnpm-workspace.yaml', 'deno.json', 'tsconfig.json', 'biome.json', '.eslintrc.json', 'eslint.config.js', '.prettierrc',
  'pyproject.toml', 'setup.cfg', 'setup.py', 'requirements.txt', 'tox.ini', 'noxfile.py', 'Pipfile',
  'Cargo.toml', 'go.mod', 'Makefile', 'GNUmakefile', 'justfile', 'Taskfile.yml', 'CMakeLists.txt', 'meson.build', 'BUILD.bazel',
  'pom.xml', 'build.gradle', 'build.gradle.kts', 'Gemfile', 'composer.json', 'mix.exs', 'Package.swift', 'pubspec.yaml', 'stack.yaml',
  '.pre-commit-config.yaml', '.editorconfig', 'Dockerfile', 'docker-compose.yml',
];
/** What other agents and editors already keep as instructions: the new AGENTS.md should carry it over. */
const INSTRUCTIONS = ['AGENTS.md', 'CLAUDE.md', 'ASSISTANT.md', 'GEMINI.md', '.cursorrules', '.github/copilot-instructions.md', 'CONTRIBUTING.md', 'README.md'];
/** Characters kept per file and in all: the model reads more with its tools when it needs to. */
const PER_FILE = 6_000;
const TOTAL = 40_000;

/** One file shown to the model, cut to size. */
export interface ProjectFile {
  /** Relative to the project root, with `/`. */
  path: string;
  text: string;
  /** Cut at PER_FILE characters (or the total ran out). */
  truncated: boolean;
}

/** The file's text when it is a regular file (not a symlink) of reasonable size; undefined otherwise. */
function readRegular(path: string, limit: number): { text: string; truncated: boolean } | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.nlink > 1) return undefined;
    const buffer = Buffer.alloc(Math.min(stats.size, limit * 4));
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, read).toString('utf8');
    if (text.includes('\0')) return undefined; // binary
    return text.length > limit ? { text: text.slice(0, limit), truncated: true } : { text, truncated: read < stats.size };
  } finally {
    closeSync(fd);
  }
}

/** The CI workflows (GitHub Actions, GitLab): the commands a project really runs to check itself. */
function workflowFiles(root: string): string[] {
  const found: string[] = [];
  try {
    for (const name of readdirSync(join(root, '.github', 'workflows')).sort())
      if (/\.ya?ml$/.test(name)) found.push(`.github/workflows/${name}`);
  } catch {
    // No workflows.
  }
  return [...found.slice(0, 4), '.gitlab-ci.yml'];
}

/**
 * The project's manifests, build and CI files and existing instructions, in a fixed order, within
 * the size limits. `isSecret` names files never to read (the permission policy's secret list).
 */
export function projectFiles(root: string, isSecret: (path: string) => string | undefined): ProjectFile[] {
  const files: ProjectFile[] = [];
  let left = TOTAL;
  for (const path of [...INSTRUCTIONS, ...MANIFESTS, ...workflowFiles(root)]) {
    if (left <= 0) break;
    const full = join(root, ...path.split('/'));
    if (isSecret(full)) continue;
    const read = readRegular(full, Math.min(PER_FILE, left));
    if (!read || !read.text.trim()) continue;
    files.push({ path, ...read });
    left -= read.text.length;
  }
  return files;
}
