import { dirname } from 'node:path';
import { hasOption, parseArgs } from './argv.js';
import { DYNAMIC, type Arg, type ShellCommand } from './types.js';
import { PRIVILEGE } from './wrappers.js';

/** Where catastrophic targets are judged. */
export interface BlockContext {
  /** The project root, symlinks resolved. */
  projectRoot: string;
  home: string | null;
  allowSudo: boolean;
  /** Resolves an argument (relative to `cwd`) to its absolute and real paths; undefined when unknown. */
  resolve(arg: string, cwd: string | null): { absolute: string; real: string } | undefined;
}

/** Top-level system directories: deleting or re-owning one wrecks the machine. */
const SYSTEM_TOP = new Set([
  '/', '/bin', '/boot', '/dev', '/etc', '/home', '/lib', '/lib32', '/lib64', '/libx32', '/opt', '/proc', '/root', '/run', '/sbin', '/srv',
  '/sys', '/usr', '/var', '/tmp', '/mnt', '/media', '/snap', '/Users', '/System', '/Library', '/Applications', '/private', '/Volumes',
  '/usr/bin', '/usr/lib', '/usr/local', '/usr/sbin', '/usr/share', '/var/lib', '/var/log', '/private/etc', '/private/var',
]);

const DISK_TOOLS = new Set(['fdisk', 'sfdisk', 'parted', 'gdisk', 'sgdisk', 'cfdisk']);
const FORMATTERS = /^(mkfs(\..+)?|mke2fs|mkswap|wipefs|mkdosfs|mkntfs|newfs(_\w+)?)$/;
const POWER = new Set(['shutdown', 'reboot', 'halt', 'poweroff']);
/** Archive tools that write files named inside the archive. */
const EXTRACTORS = new Set(['tar', 'gtar', 'bsdtar', 'unzip', '7z', 'cpio']);
/** Directories whose files make up the operating system. */
const OS_DIRS = new Set(['/', '/etc', '/usr', '/bin', '/sbin', '/lib', '/lib64', '/boot', '/var', '/System', '/Library', '/private/etc', '/usr/bin', '/usr/lib', '/usr/local']);
/** Tools that delete directory trees by design (`npx rimraf dir`). */
const RECURSIVE_DELETERS = new Set(['rimraf', 'del', 'del-cli', 'trash', 'trash-put', 'rmtrash']);

/**
 * Why deleting (or re-owning) this argument would be catastrophic, or undefined. `project: false`
 * leaves the project root itself out (re-owning or extracting into it is not a disaster).
 */
function catastrophicTarget(arg: Arg, cwd: string | null, context: BlockContext, project = true): string | undefined {
  const template = arg.template;
  if (arg.value === null) {
    // `${X:-/}` may be `/`, `~other` is a home directory: judge the value it may well take.
    if (arg.worst !== undefined) {
      const why = catastrophicTarget({ value: arg.worst, template: arg.worst, glob: false }, cwd, context, project);
      if (why) return `${describe(template)}, which may be ${why}`;
    }
    // `rm -rf "$DIR/"` with DIR empty is `rm -rf /`.
    if (template.startsWith(DYNAMIC) && /^\/(\*|\.\*)?$/.test(template.replaceAll(DYNAMIC, ''))) return `${describe(template)} could expand to /`;
    // `rm -rf "$HOME/$X"` with X empty deletes the home directory: judge the static part before a trailing run-time one.
    const trailing = /^([^\0]*?)\/?\0+\/?(\*|\.\*)?$/.exec(template);
    if (trailing && trailing[1]) {
      const why = catastrophicTarget({ value: trailing[1], template: trailing[1], glob: false }, cwd, context, project);
      if (why) return `${describe(template)}, which is ${why} when the run-time part is empty`;
    }
    return undefined;
  }
  let path = arg.value;
  let everything = false;
  if (arg.glob) {
    // `dir/*` empties `dir`: judge `dir`.
    const match = /^(.*?)\/?(\*|\.\*|\.\[!.\]\*|\{\*,\.\*\})$/.exec(path);
    if (!match) return globTarget(arg, cwd, context, project);
    path = match[1] || (path.startsWith('/') ? '/' : '.');
    everything = true;
  }
  // `cd "$X" && rm -rf *`: the working directory is only known at run time, and could be home or /.
  if (cwd === null && !path.startsWith('/') && /^(\.\.?)(\/\.\.?)*\/?$/.test(path)) return `${everything ? 'everything in ' : ''}${path} in a directory only known at run time (it could be your home or /)`;
  const resolved = context.resolve(path, cwd);
  if (!resolved) return undefined;
  for (const candidate of [resolved.absolute, resolved.real]) {
    const what = everything ? `everything in ${candidate}` : candidate;
    if (SYSTEM_TOP.has(candidate)) return `${what} (a system directory)`;
    if (context.home && candidate === context.home) return `${what} (your home directory)`;
    if (project && candidate === context.projectRoot) return `${what} (the project root)`;
    if (context.projectRoot.startsWith(candidate.endsWith('/') ? candidate : candidate + '/')) return `${what} (it contains the project)`;
    if (context.home && dirname(context.home) === candidate) return `${what} (it holds home directories)`;
  }
  return undefined;
}

const describe = (template: string) => template.replaceAll(DYNAMIC, '$VAR');

/** A glob segment (`[b]in`, `?sr`, `*`) as a regular expression over one name. */
function segmentRegex(segment: string): RegExp {
  let out = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '[') {
      const end = segment.indexOf(']', i + 2);
      if (end < 0) out += '\\[';
      else {
        const body = segment.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\');
        out += `[${body}]`;
        i = end;
      }
    } else out += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

/**
 * A glob like `/[b]in`, `/u?r`, `~/../*` or `/*\/bin`: the first segment with glob characters could
 * match a name whose deletion is catastrophic (a system directory, home, the project or a parent).
 */
function globTarget(arg: Arg, cwd: string | null, context: BlockContext, project: boolean): string | undefined {
  const path = arg.value!;
  const segments = path.split('/');
  const at = segments.findIndex((s) => /[*?[]/.test(s));
  if (at < 0) return undefined;
  const base = segments.slice(0, at).join('/') || (path.startsWith('/') ? '/' : '.');
  const resolved = context.resolve(base, cwd);
  if (!resolved) return undefined;
  let regex: RegExp;
  try {
    regex = segmentRegex(segments[at]!);
  } catch {
    return `${path} (a glob assistant cannot read)`;
  }
  const targets = [...SYSTEM_TOP, context.projectRoot, ...(context.home ? [context.home, dirname(context.home)] : [])];
  for (const dir of new Set([resolved.absolute, resolved.real])) {
    const prefix = dir.endsWith('/') ? dir : dir + '/';
    for (const target of targets) {
      if (!target.startsWith(prefix)) continue;
      const name = target.slice(prefix.length).split('/')[0]!;
      if (!name || !regex.test(name)) continue;
      const rest = segments.slice(at + 1).filter(Boolean);
      // `/[b]in` matches /bin itself; `/*/bin` reaches into what it matches.
      const candidate = prefix + name + (rest.length && !rest.some((s) => /[*?[]/.test(s)) ? '/' + rest.join('/') : '');
      const why = catastrophicTarget({ value: candidate, template: candidate, glob: false }, cwd, context, project) ?? (rest.length ? `${prefix + name} (a glob reaches into it)` : undefined);
      if (why) return `${path}, which matches ${why}`;
    }
  }
  return undefined;
}

function rmBlocks(command: ShellCommand, args: Arg[], context: BlockContext, assumeRecursive: boolean): string[] {
  const parsed = parseArgs(args);
  const recursive = assumeRecursive || hasOption(parsed, '-r', '-R', '--recursive');
  if (hasOption(parsed, '--no-preserve-root')) return ['`rm --no-preserve-root` is never run'];
  if (!recursive) return [];
  return parsed.operands.flatMap((arg) => {
    const why = catastrophicTarget(arg, command.cwd, context);
    return why ? [`\`rm -r\` of ${why}`] : [];
  });
}

function ownerBlocks(command: ShellCommand, name: string, args: Arg[], context: BlockContext, assumeRecursive: boolean): string[] {
  const parsed = parseArgs(args, { values: ['--reference', '--from'] });
  const recursive = assumeRecursive || hasOption(parsed, '-R', '--recursive');
  const targets = hasOption(parsed, '--reference') ? parsed.operands : parsed.operands.slice(1);
  const cwd = command.cwd;
  return targets.flatMap((arg) => {
    const resolved = arg.value === null ? undefined : context.resolve(arg.value, cwd);
    if (resolved && (resolved.real === '/' || resolved.absolute === '/')) return [`\`${name}\` of / is never run`];
    if (!recursive) return [];
    const why = catastrophicTarget(arg, cwd, context, false);
    return why ? [`\`${name} -R\` of ${why}`] : [];
  });
}

/** find primaries that select files: with one of them, `-delete` only removes what matched. */
const FIND_TESTS = new Set([
  '-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-type', '-xtype', '-size', '-perm', '-user',
  '-group', '-uid', '-gid', '-nouser', '-nogroup', '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin', '-newer', '-anewer', '-cnewer',
  '-newermt', '-empty', '-links', '-inum', '-samefile', '-lname', '-ilname', '-used', '-readable', '-writable', '-executable', '-fstype',
]);

/** A find test that selects (nearly) everything: `-name '*'`, `-path '*'`, `-regex '.*'`, `-type f`. */
function matchesEverything(test: string, value: Arg | undefined): boolean {
  if (test === '-type' || test === '-xtype') return true;
  const text = value?.value;
  if (text === null || text === undefined) return /name|path|regex/.test(test);
  if (/regex/.test(test)) return /^(\.\*|\.\+|\^?\.\*\$?)$/.test(text);
  return /name|path/.test(test) && /^[*?]*\*[*?]*$|^\.\*$/.test(text);
}

function findBlocks(command: ShellCommand, args: Arg[], context: BlockContext): string[] {
  const destructive = args.some((a) => a.value === '-delete' || a.value === '-exec' || a.value === '-execdir' || a.value === '-ok' || a.value === '-okdir');
  if (!destructive || args.some((a, i) => a.value !== null && FIND_TESTS.has(a.value) && !matchesEverything(a.value, args[i + 1]))) return [];
  const starts: Arg[] = [];
  for (const arg of args) {
    if (arg.value === null || arg.value.startsWith('-') || arg.value === '(' || arg.value === '!') break;
    starts.push(arg);
  }
  const cwd = command.cwd;
  return (starts.length ? starts : [{ value: '.', template: '.', glob: false }]).flatMap((arg) => {
    const why = catastrophicTarget(arg, cwd, context);
    return why ? [`\`find -delete/-exec\` over ${why}`] : [];
  });
}

/** `kill -9 -1`, `kill -- -1`: process id -1 means every process (a lone `kill -1` is signal 1 with no target). */
function killsEverything(args: Arg[]): boolean {
  return args.length >= 2 && args[args.length - 1]!.value === '-1';
}

/** Hard blocks of one command, judged by name (as written, case-folded, since macOS file names are). */
function blocksOf(command: ShellCommand, context: BlockContext): string[] {
  const args = command.effective.slice(1);
  const name = command.name?.toLowerCase();
  if (name === undefined) {
    // The name is computed at run time: if the arguments would be catastrophic for rm, chmod or
    // find, assume the worst.
    const asRm = rmBlocks(command, args, context, true);
    const asChmod = ownerBlocks(command, 'chmod', [{ value: '777', template: '777', glob: false }, ...args], context, true);
    return [...asRm, ...asChmod].map((why) => `a command whose name is only known at run time has catastrophic arguments: ${why}`);
  }
  if (PRIVILEGE.has(name) && !context.allowSudo) return [`\`${name}\` runs commands as another user (set permissions.allowSudo to judge them instead)`];
  if (name === 'rm' || name === 'shred' || name === 'srm') return rmBlocks(command, args, context, false);
  if (RECURSIVE_DELETERS.has(name)) return rmBlocks(command, args, context, true);
  if (EXTRACTORS.has(name)) {
    // Unpacking an archive over the system (tar -x -C /) can replace any system file.
    const into = command.writes.map((w) => (w.arg.value === null ? undefined : context.resolve(w.arg.value, w.cwd))).find((r) => r && (OS_DIRS.has(r.absolute) || OS_DIRS.has(r.real)));
    if (into) return [`\`${name}\` unpacks files over ${into.absolute}`];
  }
  if (name === 'mv') {
    const parsed = parseArgs(args, { values: ['-t', '--target-directory', '-S', '--suffix'] });
    // With `-t DIR` every operand is a source.
    const sources = hasOption(parsed, '-t', '--target-directory') ? parsed.operands : parsed.operands.slice(0, -1);
    return sources.flatMap((arg) => {
      const why = catastrophicTarget(arg, command.cwd, context);
      return why ? [`\`mv\` of ${why}`] : [];
    });
  }
  if (name === 'chmod' || name === 'chown' || name === 'chgrp') return ownerBlocks(command, name, args, context, false);
  if (name === 'rsync' && args.some((a) => a.value === null || /^--(delete|del$|remove-source-files)/.test(a.value))) {
    // `rsync -a --delete empty/ ~/` empties the destination; `--remove-source-files` deletes the sources.
    const operands = args.filter((a) => a.value === null || !a.value.startsWith('-'));
    const removesSources = args.some((a) => a.value === null || a.value === '--remove-source-files');
    const deletes = args.some((a) => a.value === null || /^--(delete|del$)/.test(a.value));
    const targets = [...(removesSources ? operands.slice(0, -1) : []), ...(deletes ? operands.slice(-1) : [])];
    return targets.flatMap((arg) => {
      const target = arg.value === null ? arg : { ...arg, value: arg.value.replace(/\/+$/, '') || '/', template: arg.template.replace(/\/+$/, '') || '/' };
      const why = catastrophicTarget(target, command.cwd, context);
      return why ? [`\`rsync --delete\` into or from ${why}`] : [];
    });
  }
  if (name === 'find') return findBlocks(command, args, context);
  if (name === 'git') return gitCleanBlocks(command, args, context);
  if (FORMATTERS.test(name)) return [`\`${name}\` formats or erases disks`];
  if (DISK_TOOLS.has(name) && !args.some((a) => a.value === '-l' || a.value === '--list')) return [`\`${name}\` changes disk partitions`];
  if (POWER.has(name)) return [`\`${name}\` stops the machine`];
  if ((name === 'init' || name === 'telinit') && args.some((a) => a.value === '0' || a.value === '6')) return [`\`${name}\` stops the machine`];
  if (name === 'systemctl' && args.some((a) => ['poweroff', 'reboot', 'halt', 'kexec', 'emergency', 'rescue'].includes(a.value ?? ''))) return ['`systemctl` stops the machine'];
  if ((name === 'kill' || name === 'pkill') && killsEverything(args)) return [`\`${name} -1\` kills every process`];
  if (name === 'killall5') return ['`killall5` kills every process'];
  return [];
}

/**
 * `git clean -f` deletes every untracked file below its pathspecs (or below the directory `-C`
 * names): aimed at home or a system directory, that is `rm -rf` of everything not in the repository.
 * In the project itself it is everyday work.
 */
function gitCleanBlocks(command: ShellCommand, args: Arg[], context: BlockContext): string[] {
  const sub = args.findIndex((a) => a.value === 'clean');
  if (sub < 0) return [];
  const dirs = args.slice(0, sub).flatMap((a, i, all) => (all[i - 1]?.value === '-C' ? [a] : []));
  const pathspecs = args.slice(sub + 1).filter((a) => a.value === null || !a.value.startsWith('-'));
  return [...dirs, ...pathspecs].flatMap((arg) => {
    const why = catastrophicTarget(arg, command.cwd, context, false);
    return why ? [`\`git clean\` of ${why}`] : [];
  });
}

/** Commands whose hard blocks are looked for after an unknown command name (`mywrapper rm -rf /`). */
const DESTRUCTIVE = new Set(['rm', 'shred', 'srm', 'find', 'chmod', 'chown', 'chgrp', 'mv', ...RECURSIVE_DELETERS]);

/**
 * An unknown command may be a wrapper that runs the rest of its arguments: when they hold a
 * destructive command with a catastrophic target, assume it runs.
 */
function wrappedBlocks(command: ShellCommand, context: BlockContext): string[] {
  if ((command.risk !== 'unknown' && !command.localProgram) || command.name === null) return [];
  const args = command.effective;
  for (let i = 1; i < args.length; i++) {
    const name = args[i]!.value?.split('/').pop();
    if (!name || !DESTRUCTIVE.has(name)) continue;
    const inner: ShellCommand = { ...command, name, effective: args.slice(i) };
    const found = blocksOf(inner, context);
    if (found.length) return found.map((why) => `\`${command.name}\` may run ${why}`);
  }
  return [];
}

/** The hard blocks of every command in a script. */
export function commandBlocks(commands: readonly ShellCommand[], context: BlockContext): string[] {
  return [...new Set(commands.flatMap((command) => [...blocksOf(command, context), ...wrappedBlocks(command, context)]))];
}
