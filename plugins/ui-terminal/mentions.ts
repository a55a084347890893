import { open, readdir, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { decidePermission, type Kernel, type TextPart, type UserMessage } from '../../core/index.js';
import { addedDirectoriesOf } from '../../core/kits/fs/index.js';

/** `@path` words: after a space or at the start; `\ ` escapes a space in a path. */
const MENTION = /(?:^|\s)@((?:\\ |[^\s@])+)/;
const TRAILING = /[.,;:!?)\]}'"]+$/;
/** `@server:scheme://…` names an MCP server's resource (the mcp plugin attaches those), not a file. */
const RESOURCE = /^[A-Za-z0-9_-]+:[A-Za-z][\w+.-]*:\/\//;
const DIRECTORY_ENTRIES = 200;

/** True when the text has something that looks like an `@path` mention. */
export function hasMention(text: string): boolean {
  return MENTION.test(text);
}

/** The mentioned paths, in order, without duplicates. */
export function mentionedPaths(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(new RegExp(MENTION.source, 'g'))) {
    let path = m[1]!.replace(/\\ /g, ' ');
    // "see @src/a.ts." ends a sentence, not the file name, unless a file has that exact name.
    if (TRAILING.test(path)) path = path.replace(TRAILING, '') || path;
    if (path && !RESOURCE.test(path)) found.add(path);
  }
  return [...found];
}

/** `@src/x`, `@notes.txt`, `@./a`, `@~/b`: a path, not a handle like `@alice`. */
function looksLikePath(given: string): boolean {
  return given.includes('/') || /\.[A-Za-z0-9]{1,10}$/.test(given);
}

function within(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
}

async function readText(path: string, maxBytes: number): Promise<{ text: string; truncated: boolean } | { binary: true }> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(maxBytes + 1);
    const { bytesRead } = await handle.read(buffer, 0, maxBytes + 1, 0);
    const head = buffer.subarray(0, Math.min(bytesRead, 8192));
    if (head.includes(0)) return { binary: true };
    return { text: buffer.subarray(0, Math.min(bytesRead, maxBytes)).toString('utf8'), truncated: bytesRead > maxBytes };
  } finally {
    await handle.close();
  }
}

/**
 * Attaches the files a prompt mentions with `@path`: the path is resolved (symlinks too) and must
 * stay inside the project (or an added folder), the permission engine is asked as for a read (a denial is respected),
 * and the content is added as a `<file>` block after the prompt. Folders attach a listing.
 */
export async function attachMentions(kernel: Kernel, message: UserMessage, maxBytes: number): Promise<UserMessage> {
  const text = message.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
  const paths = mentionedPaths(text);
  if (!paths.length) return message;
  const root = await realpath(kernel.projectRoot).catch(() => kernel.projectRoot);
  const blocks: string[] = [];
  const problems: string[] = [];
  for (const given of paths) {
    const expanded = given.startsWith('~/') ? join(homedir(), given.slice(2)) : given;
    const lexical = isAbsolute(expanded) ? expanded : resolve(kernel.cwd, expanded);
    let real: string;
    try {
      real = await realpath(lexical);
    } catch {
      // A word that looks like a path is a file the user meant; an @handle is left as typed.
      if (looksLikePath(given)) problems.push(`@${given} was not attached: there is no such file or folder`);
      continue;
    }
    // An added folder (`--add-dir`, `/add-dir`) is a tree like the project; its files show by their full path.
    const inProject = within(real, root);
    if (!inProject && !addedDirectoriesOf(kernel, root).some((dir) => within(real, dir))) {
      problems.push(`@${given} was not attached: it resolves to ${real}, outside the project${addedDirectoriesOf(kernel, root).length ? ' and the added folders' : ''}`);
      continue;
    }
    const shown = inProject ? relative(root, real) || '.' : real;
    const decision = await decidePermission(kernel.hooks, {
      tool: 'Read',
      input: { file_path: real },
      category: 'read',
      paths: [real],
      projectRoot: kernel.projectRoot,
      cwd: kernel.cwd,
      mode: kernel.session?.mode ?? 'default',
      headless: kernel.headless,
      sessionId: kernel.session?.info.id,
    });
    if (decision.behavior === 'deny') {
      problems.push(`@${given} was not attached: ${decision.reason}`);
      continue;
    }
    const info = await stat(real);
    if (info.isDirectory()) {
      const entries = (await readdir(real, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
      const names = entries.slice(0, DIRECTORY_ENTRIES).map((e) => (e.isDirectory() ? `${e.name}/` : e.name));
      if (entries.length > DIRECTORY_ENTRIES) names.push(`… ${entries.length - DIRECTORY_ENTRIES} more`);
      blocks.push(`<directory path="${shown}">\n${names.join('\n')}\n</directory>`);
      continue;
    }
    const content = await readText(real, maxBytes);
    if ('binary' in content) {
      problems.push(`@${given} was not attached: it is a binary file`);
      continue;
    }
    const note = content.truncated ? `\n[truncated: only the first ${maxBytes} bytes of ${info.size} are attached]` : '';
    blocks.push(`<file path="${shown}">\n${content.text}${note}\n</file>`);
  }
  for (const problem of problems) kernel.hooks.event.call({ type: 'notice', level: 'warn', message: problem, sessionId: kernel.session?.info.id });
  if (!blocks.length) return message;
  const attachment: TextPart = { type: 'text', text: `Files the user attached with @ mentions:\n\n${blocks.join('\n\n')}` };
  return { ...message, content: [...message.content, attachment] };
}
