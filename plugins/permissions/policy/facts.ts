import { basename, dirname, isAbsolute } from 'node:path';
import picomatch from 'picomatch';
import { escapeDeceptive, hasDeceptiveChars, type PermissionRequest } from '../../../core/index.js';
import { findOnPath } from '../../../core/kits/fs/index.js';
import { protectedProjectReason, systemWriteReason } from './paths/protected.js';
import { hardLinks, isSymlinkLoop, isWithin, malformedPath, realPath, realRoot, resolveFrom } from './paths/resolve.js';
import { expandGlob, hasGlob, secretBelow } from './paths/scan.js';
import { trackedSecret } from './paths/tracked.js';
import { SECRET_EXAMPLES } from './paths/secrets.js';
import { analyzeShell } from './shell/analyze.js';
import { commandBlocks } from './shell/blocks.js';
import { DYNAMIC, type ShellAnalysis, type ShellCommand, type ShellPath } from './shell/types.js';

/** What the policy layers share: settings that shape the facts. */
export interface FactSettings {
  isSecret: (path: string) => string | undefined;
  allowSudo: boolean;
  trustTests: boolean;
  home: string | null;
  /** Real paths of the added directories (`--add-dir`): inside them counts as inside the project. */
  addedRoots: readonly string[];
}

/** Inside the project root or one of the added directories (all real paths). */
function withinRoots(real: string, root: string, settings: FactSettings): boolean {
  return isWithin(real, root) || settings.addedRoots.some((added) => isWithin(real, added));
}

/**
 * A program a bare name of the command runs when PATH finds it inside the project or an added
 * directory (an activated .venv/bin, direnv's `PATH_add bin`): a file the agent may have written,
 * whatever the engine knows of the name. The names are the command's and those of the wrappers
 * before it (`env`, `nice`, `timeout 5` in `nice timeout 5 ls`), each of which PATH finds too.
 */
function projectProgram(command: ShellCommand, root: string, settings: FactSettings): { name: string; program: string } | undefined {
  // Only a read or a write can be allowed without asking for this: the rest asks anyway, and a test run
  // allowed under trustTestCommands runs project code by design.
  if (command.risk !== 'read' && command.risk !== 'write') return undefined;
  const wrappers = command.argv.slice(0, Math.max(0, command.argv.length - command.effective.length));
  const names = [command.effective[0], ...wrappers].map((arg) => arg?.value).filter((name): name is string => !!name && !/^-|[/=]/.test(name));
  for (const name of new Set(names)) {
    const program = findOnPath(name);
    if (program && withinRoots(program, root, settings)) return { name, program };
  }
  return undefined;
}

/** One path a call touches, located and classified. */
export interface PathFact {
  /** As written (run-time parts shown as `…`). */
  raw: string;
  /** Absolute, symlinks resolved; undefined when the location is only known at run time. */
  real?: string;
  absolute?: string;
  /** Inside the project root (false when unknown). */
  inside: boolean;
  /** Why it is a secret, when it is one. */
  secret?: string;
  /** For writes: why writing there is a hard block (system files, shell start-up files). */
  system?: string;
  /** For writes: why the file is protected inside the project (.git/, .assistantrc). */
  protected?: string;
  /** The shell command the path belongs to. */
  command?: ShellCommand;
  /** Why a person must look at this path even inside the project (a hard link, a name with bidi characters). */
  concern?: string;
  /** Resolving it runs into a loop of symlinks. */
  loop?: boolean;
}

/** Everything the layers need to know about one request, computed once. */
export interface RequestFacts {
  /** Why the request cannot be judged at all (NUL bytes, non-string paths). */
  malformed?: string;
  reads: PathFact[];
  writes: PathFact[];
  shell?: ShellAnalysis;
  /** Hard blocks: never run, in any mode. */
  blocks: string[];
  /** Secrets the call would read or write. */
  secrets: string[];
}

const MAX_COMMAND_LENGTH = 100_000;

function displayed(template: string): string {
  return template.split(DYNAMIC).join('…');
}

/** Could a glob whose directory cannot be listed match a secret? */
function globCouldMatchSecret(pattern: string, isSecret: FactSettings['isSecret']): string | undefined {
  const base = basename(pattern);
  const matcher = picomatch(base, { dot: base.startsWith('.'), nocase: true });
  const hit = SECRET_EXAMPLES.find((name) => matcher(name));
  return hit && isSecret(hit) ? `${pattern} could match secret files such as ${hit}` : undefined;
}

function locate(raw: string, cwd: string | null, kind: 'read' | 'write', root: string, settings: FactSettings, glob = false, metadata = false): PathFact {
  const fact: PathFact = { raw, inside: false };
  if (hasDeceptiveChars(raw.split(DYNAMIC).join(''))) fact.concern = `the name ${escapeDeceptive(displayed(raw))} holds control or bidirectional-text characters, which can make it look like another name`;
  const plain = raw.split(DYNAMIC).join('');
  fact.secret = settings.isSecret(plain) || undefined;
  if (raw.includes(DYNAMIC) || (cwd === null && !isAbsolute(raw) && !raw.startsWith('~'))) return fact;
  const located = resolveFrom(cwd ?? root, raw, settings.home);
  if (!located) return fact;
  fact.absolute = located.absolute;
  fact.real = located.real;
  if (isSymlinkLoop(located.absolute)) fact.loop = true;
  if (!fact.concern && hasDeceptiveChars(located.real))
    fact.concern = `${escapeDeceptive(raw)} leads to ${escapeDeceptive(located.real)}, whose name holds control or bidirectional-text characters`;
  // A hard link may be a file from anywhere (~/.ssh/id_rsa linked in): it is not proven inside.
  const links = hasGlob(raw) && glob ? 1 : hardLinks(located.real);
  if (links > 1) fact.concern = `${escapeDeceptive(raw)} has ${links} hard links, so it may be a file from outside the project`;
  const candidates = [located.absolute, located.real];
  if (glob && hasGlob(raw)) {
    const matches = expandGlob(located.absolute);
    if (matches === undefined) fact.secret ??= globCouldMatchSecret(raw, settings.isSecret);
    const reals = (matches ?? []).map((m) => realPath(m));
    // Listing names through a symlink reads nothing behind it; reading contents does.
    candidates.push(...(matches ?? []), ...(metadata ? [] : reals));
    // The pattern's fixed directory decides where it is, and each match must stay inside too
    // (by name only for commands that just list: following the link reads nothing behind it).
    const fixed = located.absolute.split(/[*?[]/)[0]!;
    fact.real = realPath(fixed.endsWith('/') ? fixed.slice(0, -1) || '/' : dirname(fixed));
    const escaped = (metadata ? (matches ?? []) : reals).find((r) => !withinRoots(r, root, settings));
    const linked = metadata ? undefined : reals.find((r) => hardLinks(r) > 1);
    if (linked) fact.concern ??= `${escapeDeceptive(linked)} has ${hardLinks(linked)} hard links, so it may be a file from outside the project`;
    if (escaped) fact.real = escaped;
    fact.inside = withinRoots(fact.real, root, settings);
  } else fact.inside = withinRoots(located.real, root, settings);
  if (fact.concern) fact.inside = false;
  for (const candidate of candidates) {
    fact.secret ??= settings.isSecret(candidate);
    if (kind === 'write') {
      fact.system ??= systemWriteReason(candidate, { home: settings.home, projectRoot: root });
      // An added directory's own .git and shell files are as protected as the project's.
      for (const base of [root, ...settings.addedRoots]) fact.protected ??= protectedProjectReason(candidate, base);
    }
  }
  return fact;
}

function shellFacts(path: ShellPath, command: ShellCommand, kind: 'read' | 'write', root: string, settings: FactSettings): PathFact {
  const fact = locate(path.arg.template, path.cwd, kind, root, settings, path.arg.glob, path.metadata);
  fact.command = command;
  fact.raw = displayed(path.arg.template);
  if (path.recursive && fact.real && !fact.secret) {
    const scan = secretBelow(fact.real, settings.isSecret, path.excludes, { skipHidden: path.skipHidden });
    if (scan.found) fact.secret = `reading ${fact.raw} recursively would read the secret ${scan.found}; search specific paths, or skip it (e.g. --exclude=${basename(scan.found)})`;
    // Too many files to look through: nothing is proven, so the command is not safe on its own.
    const unproven = `reading ${fact.raw} recursively: there are too many files below it to check for secrets`;
    if (scan.incomplete && !command.concerns.includes(unproven)) command.concerns.push(unproven);
  }
  return fact;
}

/** Works out what a request touches and whether anything about it must never run. */
export async function gatherFacts(request: PermissionRequest, settings: FactSettings): Promise<RequestFacts> {
  const facts: RequestFacts = { reads: [], writes: [], blocks: [], secrets: [] };
  const root = realRoot(request.projectRoot);
  const paths: unknown[] = Array.isArray(request.paths) ? request.paths : request.paths === undefined ? [] : [request.paths];
  for (const path of paths) {
    const problem = malformedPath(path);
    if (problem) return { ...facts, malformed: problem };
  }
  if (request.command !== undefined) {
    if (typeof request.command !== 'string') return { ...facts, malformed: 'the command is not a string' };
    if (request.command.includes('\0')) return { ...facts, malformed: 'the command contains a NUL byte' };
    if (request.command.length > MAX_COMMAND_LENGTH) return { ...facts, malformed: `the command is longer than ${MAX_COMMAND_LENGTH} characters` };
  }

  const kind = request.category === 'edit' || request.category === 'other' ? 'write' : 'read';
  for (const path of paths as string[]) (kind === 'write' ? facts.writes : facts.reads).push(locate(path, request.cwd, kind, root, settings));
  // Files the call may touch without naming them (its tool locks everything): nowhere a check can prove safe.
  if (request.unbounded) (request.unbounded === 'write' || kind === 'write' ? facts.writes : facts.reads).push({ raw: 'files it does not name', inside: false });

  if (typeof request.command === 'string') {
    const shell = await analyzeShell(request.command, { cwd: request.cwd, home: settings.home, allowSudo: settings.allowSudo, trustTests: settings.trustTests });
    facts.shell = shell;
    for (const command of shell.commands) {
      const found = projectProgram(command, root, settings);
      const shadow = found && `\`${found.name}\` is ${found.program} on PATH, a program inside the project that can be changed without asking`;
      if (shadow && !command.concerns.includes(shadow)) command.concerns.push(shadow);
      if (command.readsTracked) {
        // Content named by commit or object id cannot be path-checked: a tracked secret keeps the command from being proven safe.
        const secret = trackedSecret(command.cwd ?? root, settings.isSecret);
        const concern = secret && `prints what the repository holds, and it tracks ${secret}, which looks like a secret; name the paths to show instead`;
        if (concern && !command.concerns.includes(concern)) command.concerns.push(concern);
      }
      for (const path of command.reads) facts.reads.push(shellFacts(path, command, 'read', root, settings));
      for (const path of command.writes) facts.writes.push(shellFacts(path, command, 'write', root, settings));
    }
    facts.blocks.push(
      ...shell.blocks,
      ...commandBlocks(shell.commands, {
        projectRoot: root,
        home: settings.home,
        allowSudo: settings.allowSudo,
        resolve: (arg, cwd) => (isAbsolute(arg) || arg.startsWith('~') || cwd !== null ? resolveFrom(cwd ?? '/', arg, settings.home) : undefined),
      }),
    );
  }
  const loop = [...facts.reads, ...facts.writes].find((f) => f.loop);
  if (loop) return { ...facts, malformed: `${escapeDeceptive(loop.raw)} is a loop of symlinks, which never resolves to a file` };
  for (const fact of facts.writes) if (fact.system) facts.blocks.push(fact.system);
  for (const fact of facts.reads) if (fact.secret) facts.secrets.push(`reads ${fact.raw}: ${fact.secret}`);
  for (const fact of facts.writes) if (fact.secret) facts.secrets.push(`writes ${fact.raw}: ${fact.secret}`);
  facts.blocks = [...new Set(facts.blocks)];
  facts.secrets = [...new Set(facts.secrets)];
  return facts;
}
