import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, parse, relative, sep } from 'node:path';
import type { PermissionRequest } from '../../../core/index.js';
import type { RequestFacts } from './facts.js';
import { realPath } from './paths/resolve.js';
import { urlHost } from './rules/domain.js';
import { coveringRule, type MatchContext } from './rules/match.js';
import { parseRule } from './rules/parse.js';
import { isSafeCommand } from './safety.js';
import type { ShellCommand } from './shell/types.js';

/** Tools whose second word is a subcommand: a grant covers the subcommand (`Bash(npm run build:*)`), not the tool. */
const SUBCOMMAND_TOOLS = new Set(['git', 'npm', 'yarn', 'pnpm', 'bun', 'cargo', 'go', 'docker', 'podman', 'kubectl', 'pip', 'pip3', 'make', 'deno', 'uv', 'poetry', 'gh', 'terraform', 'dotnet', 'mvn', 'gradle']);

function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function commandRule(command: ShellCommand): string | undefined {
  const words = [command.name, ...command.effective.slice(1).map((a) => a.value)];
  if (words.some((w) => w === null)) return undefined;
  const [name, sub, third] = words as string[];
  if (SUBCOMMAND_TOOLS.has(name!) && sub && !sub.startsWith('-')) {
    // `npm run build` → `npm run build:*`; `git commit -m x` → `git commit:*`.
    const scriptRunner = (sub === 'run' || sub === 'run-script') && third && !third.startsWith('-');
    return `Bash(${[name, sub, ...(scriptRunner ? [third] : [])].join(' ')}:*)`;
  }
  return `Bash(${(words as string[]).map(quote).join(' ')})`;
}

/** The folder a grant for this path covers: a searched folder itself, a file's folder. */
function scopeFolder(real: string): string {
  return statSync(real, { throwIfNoEntry: false })?.isDirectory() ? real : dirname(real);
}

/** Folders too wide to offer "always" for: the file system's root, the home folder or one above it. */
function tooWide(dir: string): boolean {
  if (dir === parse(dir).root) return true;
  // The home folder as given and as resolved: `dir` is a real path, and a home reached through a symlink must still match.
  const given = [homedir(), process.env.HOME].filter((h): h is string => Boolean(h));
  const homes = [...given, ...given.map((h) => realPath(h))];
  return homes.some((home) => {
    const up = relative(dir, home);
    return up === '' || (!up.startsWith('..') && !isAbsolute(up));
  });
}

function candidates(request: PermissionRequest, facts: RequestFacts, context: MatchContext): string[] {
  if (facts.shell) {
    const unsafe = facts.shell.commands.filter((c) => !isSafeCommand(c, context.trustTests));
    const rules = [...new Set(unsafe.map(commandRule))];
    if (rules.length === 1 && rules[0]) return [rules[0]];
    return [`Bash(${facts.shell.source.trim().replace(/\s+/g, ' ')})`];
  }
  const own = [...facts.reads, ...facts.writes];
  // A network tool's URL: the exact host it named, never its parent domain.
  const host = request.category === 'network' && !own.length ? urlHost(request.input.url) : undefined;
  if (host) return [`${request.tool}(domain:${host})`];
  if (!own.length || own.some((f) => !f.real || f.protected)) return request.category === 'read' || request.category === 'edit' ? [] : [request.tool];
  const tool = request.category === 'read' ? 'Read' : request.category === 'edit' ? 'Edit' : request.tool;
  const dirs = [...new Set(own.map((f) => scopeFolder(f.real!)))];
  if (dirs.length !== 1) return [];
  const dir = dirs[0]!;
  const inside = own.every((f) => f.inside);
  if (!inside && tooWide(dir)) return [];
  const pattern = inside ? relative(context.root, dir).split(sep).join('/') : dir;
  if (inside && !pattern) return own.length === 1 ? [`${tool}(${relative(context.root, own[0]!.real!)})`] : [];
  return [`${tool}(${inside ? pattern : '/' + pattern.replace(/^\/+/, '')}/**)`];
}

/** The rule a "yes, for this session / always" answer records; only one that really covers the call. */
export function suggestRule(request: PermissionRequest, facts: RequestFacts, context: MatchContext): string | undefined {
  for (const text of candidates(request, facts, context)) {
    try {
      if (coveringRule([parseRule(text, 'allow', 'suggestion')], context)) return text;
    } catch {
      // Not a valid rule: suggest nothing rather than something broken.
    }
  }
  return undefined;
}
