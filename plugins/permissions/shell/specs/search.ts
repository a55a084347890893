import { hasOption, optionValues, parseArgs } from '../argv.js';
import type { Judge, Verdict } from '../spec.js';
import { DYNAMIC, type Arg } from '../types.js';
import { literal } from '../words.js';

const GREP_VALUES = [
  '-e', '-f', '-m', '-A', '-B', '-C', '-d', '-D', '--regexp', '--file', '--max-count', '--after-context', '--before-context',
  '--context', '--directories', '--devices', '--include', '--exclude', '--exclude-dir', '--exclude-from', '--label',
  '--binary-files', '--group-separator',
];

const grep: Judge = (args, _context, name) => {
  const parsed = parseArgs(args, { values: GREP_VALUES });
  const operands = [...parsed.operands];
  if (!hasOption(parsed, '-e', '--regexp', '-f', '--file')) operands.shift();
  const recursive = hasOption(parsed, '-r', '-R', '--recursive', '--dereference-recursive') || optionValues(parsed, '-d', '--directories').some((a) => a.value === 'recurse');
  const reads = [...optionValues(parsed, '-f', '--file', '--exclude-from')];
  if (recursive) {
    return {
      risk: 'read',
      reason: `\`${name} -r\` only reads`,
      reads,
      recursiveReads: operands.length ? operands : [literal('.')],
      excludes: [...optionValues(parsed, '--exclude', '--exclude-dir')].map((a) => a.value ?? ''),
    };
  }
  return { risk: 'read', reason: `\`${name}\` only reads`, reads: [...reads, ...operands] };
};

const RG_VALUES = [
  '-e', '-f', '-g', '-t', '-T', '-m', '-A', '-B', '-C', '-j', '-M', '-r', '-E', '-d', '--regexp', '--file', '--glob', '--iglob',
  '--type', '--type-not', '--type-add', '--type-clear', '--max-count', '--after-context', '--before-context', '--context',
  '--threads', '--max-columns', '--replace', '--encoding', '--max-depth', '--maxdepth', '--sort', '--sortr', '--color',
  '--colors', '--ignore-file', '--path-separator', '--pre', '--pre-glob', '--max-filesize', '--context-separator',
  '--field-match-separator', '--field-context-separator', '--dfa-size-limit', '--regex-size-limit', '--engine', '--hostname-bin',
  '--hyperlink-format', '--generate',
];

const rg: Judge = (args) => {
  const parsed = parseArgs(args, { values: RG_VALUES });
  if (hasOption(parsed, '--pre', '--hostname-bin')) return { risk: 'exec', reason: '`rg --pre` runs a program on every file' };
  if (hasOption(parsed, '-z', '--search-zip')) return { risk: 'exec', reason: '`rg -z` runs decompression programs' };
  const operands = [...parsed.operands];
  const listing = hasOption(parsed, '--files', '--type-list');
  if (!listing && !hasOption(parsed, '-e', '--regexp', '-f', '--file')) operands.shift();
  const reads = optionValues(parsed, '-f', '--file', '--ignore-file');
  // rg skips hidden and git-ignored files unless told otherwise, so secrets below a directory stay unread.
  const unrestricted = hasOption(parsed, '-u', '--hidden', '-.', '--no-ignore', '--no-ignore-dot', '--no-ignore-vcs', '--unrestricted');
  const targets = operands.length ? operands : [literal('.')];
  if (listing) return { risk: 'read', reason: '`rg --files` only lists', reads: [...reads, ...operands] };
  if (unrestricted) return { risk: 'read', reason: '`rg` only reads', reads, recursiveReads: targets };
  return { risk: 'read', reason: '`rg` only reads', reads: [...reads, ...operands] };
};

const ag: Judge = (args, _context, name) => {
  const parsed = parseArgs(args, { values: ['-A', '-B', '-C', '-G', '-g', '-m', '--ignore', '--ignore-dir', '-p', '--path-to-ignore', '--depth', '--pager'] });
  if (hasOption(parsed, '--pager')) return { risk: 'exec', reason: `\`${name} --pager\` runs a program` };
  const operands = parsed.operands.slice(1);
  const unrestricted = hasOption(parsed, '--hidden', '-u', '--unrestricted', '-a', '--all-types');
  if (unrestricted) return { risk: 'read', reason: `\`${name}\` only reads`, recursiveReads: operands.length ? operands : [literal('.')] };
  return { risk: 'read', reason: `\`${name}\` only reads`, reads: operands };
};

/** find's actions that run a command: the words up to `;` or `+`. */
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);
const FIND_WRITE_FILE = new Set(['-fprint', '-fprint0', '-fprintf', '-fls']);
const FIND_VALUE = new Set([
  '-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-type', '-xtype', '-size', '-perm',
  '-user', '-group', '-uid', '-gid', '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin', '-newer', '-anewer', '-cnewer',
  '-maxdepth', '-mindepth', '-links', '-inum', '-samefile', '-lname', '-ilname', '-printf', '-regextype', '-fstype', '-used',
  '-newermt', '-newerct', '-newerat', '-context', '-files0-from',
]);

const find: Judge = (args) => {
  // Start points come first: everything before the first expression word.
  let i = 0;
  const starts: Arg[] = [];
  while (i < args.length) {
    const text = args[i]!.value;
    if (text === '-H' || text === '-L' || text === '-P' || text === '-O0' || text === '-O1' || text === '-O2' || text === '-O3') {
      i++;
      continue;
    }
    if (text === null || text.startsWith('-') || text === '(' || text === '!' || text === ')') break;
    starts.push(args[i++]!);
  }
  const verdict: Verdict = { risk: 'read', reason: '`find` only lists', reads: starts.length ? starts : [literal('.')], concerns: [], metadataOnly: true };
  const runs: Arg[][] = [];
  const writes: Arg[] = [];
  for (; i < args.length; i++) {
    const text = args[i]!.value;
    if (text === null) {
      verdict.concerns!.push('part of the `find` expression is only known at run time');
      continue;
    }
    if (FIND_EXEC.has(text)) {
      const command: Arg[] = [];
      for (i++; i < args.length && args[i]!.value !== ';' && args[i]!.value !== '+'; i++)
        command.push(args[i]!.value === '{}' ? { value: null, template: DYNAMIC, glob: false } : args[i]!);
      runs.push(command);
    } else if (text === '-delete') {
      writes.push(...verdict.reads!);
    } else if (FIND_WRITE_FILE.has(text)) {
      if (args[i + 1]) writes.push(args[++i]!);
      if (text === '-fprintf') i++;
    } else if (FIND_VALUE.has(text)) i++;
  }
  // What `-exec` runs gets the matched files: names given with -name/-path count as read (`-name .env -exec cat`).
  const named = args.filter((_a, j) => ['-name', '-iname', '-path', '-ipath'].includes(args[j - 1]?.value ?? ''));
  if (runs.length) return { ...verdict, risk: 'read', reason: '`find -exec` runs a command on every match', runs, writes, reads: [...verdict.reads!, ...named], metadataOnly: false };
  if (writes.length) return { ...verdict, risk: 'write', reason: '`find -delete` / `-fprint` changes files', writes };
  return verdict;
};

const fd: Judge = (args, _context, name) => {
  const parsed = parseArgs(args, { values: ['-e', '-E', '-t', '-d', '-x', '-X', '-j', '-S', '-c', '-o', '--extension', '--exclude', '--type', '--max-depth', '--min-depth', '--exact-depth', '--threads', '--size', '--changed-within', '--changed-before', '--owner', '--color', '--base-directory', '--search-path', '--format', '--max-results', '--ignore-file', '--path-separator'] });
  const execAt = args.findIndex((a) => ['-x', '--exec', '-X', '--exec-batch'].includes(a.value ?? ''));
  if (execAt >= 0) return { risk: 'exec', reason: `\`${name} --exec\` runs a command on every match`, runs: [args.slice(execAt + 1)] };
  const operands = parsed.operands.slice(1);
  return { risk: 'read', reason: `\`${name}\` only lists`, reads: [...operands, ...optionValues(parsed, '--search-path', '--base-directory')] };
};

/** Searching and listing commands. */
export const searchSpecs: Record<string, Judge> = {
  grep,
  egrep: grep,
  fgrep: grep,
  zgrep: grep,
  rg,
  ag,
  ack: ag,
  find,
  fd,
  fdfind: fd,
  locate: () => ({ risk: 'read', reason: '`locate` only lists', inert: true }),
};
