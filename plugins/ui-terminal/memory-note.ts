import { constants } from 'node:fs';
import { lstat, mkdir, open, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { isInside, userDirs, type Kernel } from '../../core/index.js';

/** A memory file `#note` can go to. */
export interface MemoryTarget {
  scope: 'project' | 'local' | 'user';
  label: string;
  path: string;
  /** The folder the file must stay in (a symlink pointing elsewhere is refused). */
  root: string;
}

/** The names memory-files reads by default; `memory.fileNames` in the config overrides them. */
const DEFAULT_NAMES = ['ASSISTANT.md', 'AGENTS.md', 'CLAUDE.md', 'ASSISTANT.local.md'];
const LOCAL_NAME = 'ASSISTANT.local.md';

const exists = (path: string) => lstat(path).then(() => true, () => false);

/**
 * Where a note can go: the project's memory file (the one it has, else AGENTS.md), a personal
 * file for this project kept out of git (ASSISTANT.local.md), and the user's file for all projects.
 * Only files the memory plugin reads are offered, so a note always reaches the model.
 */
export async function memoryTargets(kernel: Kernel, env: NodeJS.ProcessEnv = process.env): Promise<MemoryTarget[]> {
  const configured = (kernel.config.memory as { fileNames?: unknown } | undefined)?.fileNames;
  const names = Array.isArray(configured) && configured.every((n) => typeof n === 'string') ? (configured as string[]) : DEFAULT_NAMES;
  const root = kernel.projectRoot;
  const shared = names.filter((n) => n !== LOCAL_NAME);
  let projectName = shared.includes('AGENTS.md') ? 'AGENTS.md' : shared[0];
  for (const name of shared) if (await exists(join(root, name))) {
    projectName = name;
    break;
  }
  const userRoot = userDirs(env).config;
  const targets: MemoryTarget[] = [];
  if (projectName) targets.push({ scope: 'project', label: `Project memory (${projectName}, shared with the repository)`, path: join(root, projectName), root });
  if (names.includes(LOCAL_NAME)) targets.push({ scope: 'local', label: `Local project memory (${LOCAL_NAME}, only you, kept out of git)`, path: join(root, LOCAL_NAME), root });
  const userName = shared.includes('ASSISTANT.md') ? 'ASSISTANT.md' : shared[0];
  if (userName) targets.push({ scope: 'user', label: `User memory (${join(userRoot, userName).replace(env.HOME ?? '\0', '~')}, all your projects)`, path: join(userRoot, userName), root: userRoot });
  return targets;
}

/**
 * Appends `- note` to the target. The file must resolve inside its folder and be a regular file:
 * a project could ship AGENTS.md as a link to ~/.bashrc, and a note must never land there.
 */
export async function appendMemoryNote(target: MemoryTarget, note: string, kernel: Kernel): Promise<string> {
  const line = note.replace(/\s+/g, ' ').trim();
  if (!line) throw new Error('the note is empty: type the text after #');
  await mkdir(target.root, { recursive: true });
  const root = await realpath(target.root);
  const created = !(await exists(target.path));
  if (!created) {
    const real = await realpath(target.path);
    if (!isInside(real, root)) throw new Error(`${target.path} leads to ${real}, outside ${root}; the note was not written`);
  }
  // O_NOFOLLOW: a link put in place since the check above is refused, not followed.
  const handle = await open(target.path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o644);
  try {
    if (!(await handle.stat()).isFile()) throw new Error(`${target.path} is not a regular file; the note was not written`);
    const { size } = await handle.stat();
    const lead = size === 0 ? '# Memory\n\n' : (await endsWithNewline(target.path, size)) ? '' : '\n';
    await handle.write(`${lead}- ${line}\n`);
  } finally {
    await handle.close();
  }
  if (created && target.scope === 'local') await excludeFromGit(target.root, target.path);
  // The memory plugin reads its files again when told they changed, so the note applies from the next request.
  kernel.files.changed([target.path]);
  return target.path;
}

async function endsWithNewline(path: string, size: number): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const byte = Buffer.alloc(1);
    await handle.read(byte, 0, 1, size - 1);
    return byte[0] === 0x0a;
  } finally {
    await handle.close();
  }
}

/** A personal file stays out of commits: listed in .git/info/exclude (never the shared .gitignore). */
async function excludeFromGit(root: string, path: string): Promise<void> {
  const gitDir = join(root, '.git');
  const info = await lstat(gitDir).catch(() => undefined);
  if (!info?.isDirectory()) return;
  await mkdir(join(gitDir, 'info'), { recursive: true });
  // Links inside .git are refused like the memory file's: the line must not land outside the repository.
  const infoDir = await realpath(join(gitDir, 'info'));
  if (!isInside(infoDir, await realpath(gitDir))) return;
  const handle = await open(join(infoDir, 'exclude'), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o644).catch(() => undefined);
  if (!handle) return;
  try {
    if ((await handle.stat()).isFile()) await handle.write(`\n/${path.slice(root.length + 1)}\n`);
  } finally {
    await handle.close();
  }
}
