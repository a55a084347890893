import { INTERPRETERS, SHELLS } from './specs/exec.js';
import { DOWNLOADERS } from './specs/network.js';
import type { ShellCommand } from './types.js';

/** True for commands that run code: shells, interpreters, `source`. */
export function runsCode(command: ShellCommand): boolean {
  const name = command.name;
  return name !== null && (SHELLS.has(name) || INTERPRETERS.has(name) || name === 'source' || name === '.');
}

/** True for commands that download content (curl, wget, nc, ...). */
export function downloads(command: ShellCommand): boolean {
  return command.name !== null && DOWNLOADERS.has(command.name);
}

/**
 * Downloaded content run as code, beyond the plain `curl … | sh` (which the pipeline walk catches):
 * a shell reading input that is not literal text in a command that downloads (`curl x | tee >(sh)`,
 * `curl x > f; sh < f`), or a downloaded file run by name (`curl -o i.sh https://… && sh i.sh`,
 * `wget https://…/i.sh; bash i.sh`).
 */
export function downloadedCodeBlocks(commands: readonly ShellCommand[], stdinReaders: ReadonlySet<ShellCommand>, fedLiterally: ReadonlySet<ShellCommand>): string[] {
  const downloaders = commands.filter(downloads);
  if (!downloaders.length) return [];
  const blocks: string[] = [];
  for (const reader of stdinReaders)
    if (runsCode(reader) && !fedLiterally.has(reader)) blocks.push(`\`${reader.name}\` runs input that can come from a download in the same command`);
  const files = new Set<string>();
  for (const d of downloaders) {
    for (const w of d.writes) if (w.arg.value) files.add(w.arg.value);
    for (const a of d.effective) if (a.value?.includes('://')) files.add(a.value.split(/[?#]/)[0]!.split('/').pop() ?? '');
  }
  files.delete('');
  for (const c of commands)
    if (runsCode(c) && c.reads.some((r) => r.arg.value !== null && (files.has(r.arg.value) || files.has(r.arg.value.split('/').pop()!))))
      blocks.push(`\`${c.name}\` runs a file downloaded in the same command`);
  return blocks;
}
