import { hasOption, optionValues, parseArgs, type ArgSpec } from '../argv.js';
import { checked, type Judge, type Verdict } from '../spec.js';
import { DYNAMIC, type Arg } from '../types.js';
import { literal } from '../words.js';

const GREP: ArgSpec = {
  flags: [
    '-E', '-F', '-G', '-P', '-i', '-y', '-v', '-w', '-x', '-c', '-L', '-l', '-o', '-q', '-s', '-b', '-H', '-h', '-n', '-T', '-Z', '-z', '-a', '-I', '-r', '-R', '-U',
    '--extended-regexp', '--fixed-strings', '--basic-regexp', '--perl-regexp', '--ignore-case', '--no-ignore-case', '--invert-match', '--word-regexp',
    '--line-regexp', '--count', '--files-without-match', '--files-with-matches', '--only-matching', '--quiet', '--silent', '--no-messages',
    '--byte-offset', '--with-filename', '--no-filename', '--line-number', '--initial-tab', '--null', '--null-data', '--text', '--recursive',
    '--dereference-recursive', '--line-buffered', '--binary', '--no-group-separator', '--help', '--version',
  ],
  optional: ['--color', '--colour'],
  values: {
    '-e': 'text', '--regexp': 'text', '-f': 'read', '--file': 'read', '-m': 'text', '--max-count': 'text', '-A': 'text', '-B': 'text', '-C': 'text',
    '--after-context': 'text', '--before-context': 'text', '--context': 'text', '-d': 'text', '--directories': 'text', '-D': 'text', '--devices': 'text',
    '--include': 'text', '--exclude': 'text', '--exclude-dir': 'text', '--exclude-from': 'read', '--label': 'text', '--binary-files': 'text', '--group-separator': 'text',
  },
  numeric: true,
};

const grep: Judge = (args, _context, name) => {
  const parsed = parseArgs(args, GREP);
  const operands = [...parsed.operands];
  if (!hasOption(parsed, '-e', '--regexp', '-f', '--file')) operands.shift();
  const recursive = hasOption(parsed, '-r', '-R', '--recursive', '--dereference-recursive') || optionValues(parsed, '-d', '--directories').some((a) => a.value === 'recurse');
  if (recursive) {
    return checked({
      risk: 'read',
      reason: `\`${name} -r\` only reads`,
      recursiveReads: operands.length ? operands : [literal('.')],
      excludes: [...optionValues(parsed, '--exclude', '--exclude-dir')].map((a) => a.value ?? ''),
    }, parsed, GREP, name);
  }
  return checked({ risk: 'read', reason: `\`${name}\` only reads`, reads: operands }, parsed, GREP, name);
};

const RG: ArgSpec = {
  flags: [
    '-i', '-s', '-S', '-v', '-w', '-x', '-c', '-l', '-n', '-N', '-o', '-q', '-u', '-a', '-L', '-F', '-P', '-U', '-H', '-I', '-0', '-p', '-b', '-h', '-V', '-.',
    '--ignore-case', '--case-sensitive', '--smart-case', '--invert-match', '--word-regexp', '--line-regexp', '--count', '--count-matches',
    '--files-with-matches', '--files-without-match', '--line-number', '--no-line-number', '--only-matching', '--quiet', '--unrestricted', '--text',
    '--follow', '--fixed-strings', '--pcre2', '--multiline', '--multiline-dotall', '--with-filename', '--no-filename', '--null', '--pretty',
    '--heading', '--no-heading', '--byte-offset', '--column', '--no-column', '--hidden', '--no-hidden', '--no-ignore', '--no-ignore-vcs',
    '--no-ignore-dot', '--no-ignore-parent', '--no-ignore-global', '--no-ignore-exclude', '--no-ignore-files', '--files', '--type-list', '--json',
    '--no-json', '--no-messages', '--vimgrep', '--trim', '--stats', '--sort-files', '--one-file-system', '--no-config', '--glob-case-insensitive',
    '--crlf', '--no-require-git', '--passthru', '--max-columns-preview', '--line-buffered', '--block-buffered', '--debug', '--trace', '--no-unicode',
    '--ignore-file-case-insensitive', '--include-zero', '--binary', '--no-binary', '--mmap', '--no-mmap', '--auto-hybrid-regex', '--null-data',
    '--no-pcre2-unicode', '--help', '--version', '--no-filename', '--fixed-strings', '--no-follow', '--follow',
  ],
  values: {
    '-e': 'text', '--regexp': 'text', '-f': 'read', '--file': 'read', '-g': 'text', '--glob': 'text', '--iglob': 'text', '-t': 'text', '--type': 'text',
    '-T': 'text', '--type-not': 'text', '--type-add': 'text', '--type-clear': 'text', '-m': 'text', '--max-count': 'text', '-A': 'text', '-B': 'text',
    '-C': 'text', '--after-context': 'text', '--before-context': 'text', '--context': 'text', '-j': 'text', '--threads': 'text', '-M': 'text',
    '--max-columns': 'text', '-r': 'text', '--replace': 'text', '-E': 'text', '--encoding': 'text', '-d': 'text', '--max-depth': 'text', '--maxdepth': 'text',
    '--sort': 'text', '--sortr': 'text', '--color': 'text', '--colors': 'text', '--ignore-file': 'read', '--path-separator': 'text', '--pre': 'code',
    '--pre-glob': 'text', '--max-filesize': 'text', '--context-separator': 'text', '--field-match-separator': 'text', '--field-context-separator': 'text',
    '--dfa-size-limit': 'text', '--regex-size-limit': 'text', '--engine': 'text', '--hostname-bin': 'code', '--hyperlink-format': 'text', '--generate': 'text',
  },
};

const rg: Judge = (args, _context, name) => {
  const parsed = parseArgs(args, { ...RG, flags: [...RG.flags!, '-z', '--search-zip'] });
  if (hasOption(parsed, '-z', '--search-zip')) return { risk: 'exec', reason: `\`${name} -z\` runs decompression programs` };
  const operands = [...parsed.operands];
  const listing = hasOption(parsed, '--files', '--type-list');
  if (!listing && !hasOption(parsed, '-e', '--regexp', '-f', '--file')) operands.shift();
  // rg skips hidden files unless told otherwise (.env stays unread), but reads every other file below
  // its targets: a `credentials.json` or `server.key` there is a secret it would print. Ignore files
  // are not worked out here, so a git-ignored secret counts too (fail closed). Following symlinks
  // (`-L`) reaches whatever a link in the project points to (`link -> ~/.ssh`).
  const unrestricted = hasOption(parsed, '-u', '--hidden', '-.', '--no-ignore', '--no-ignore-dot', '--no-ignore-vcs', '--unrestricted', '-L', '--follow');
  const targets = operands.length ? operands : [literal('.')];
  if (listing) return checked({ risk: 'read', reason: `\`${name} --files\` only lists`, reads: operands }, parsed, RG, name);
  return checked({ risk: 'read', reason: `\`${name}\` only reads`, recursiveReads: targets, ...(unrestricted ? {} : { skipHidden: true }) }, parsed, RG, name);
};

const AG: ArgSpec = {
  flags: ['-i', '-s', '-S', '-v', '-w', '-l', '-L', '-c', '-Q', '-f', '-u', '-a', '-U', '-z', '-0', '-t', '-H', '--hidden', '--unrestricted', '--all-types', '--all-text', '--case-sensitive', '--ignore-case', '--smart-case', '--literal', '--files-with-matches', '--files-without-matches', '--count', '--nocolor', '--color', '--noheading', '--heading', '--nogroup', '--group', '--column', '--numbers', '--nonumbers', '--stats', '--silent', '--null', '--vimgrep', '--follow', '--search-zip', '--filename', '--nofilename', '--only-matching', '--word-regexp', '--invert-match', '--help', '--version'],
  values: { '-A': 'text', '-B': 'text', '-C': 'text', '-G': 'text', '-g': 'text', '-m': 'text', '--ignore': 'text', '--ignore-dir': 'text', '-p': 'read', '--path-to-ignore': 'read', '--depth': 'text', '--file-search-regex': 'text', '--max-count': 'text', '--pager': 'code' },
};
const ag: Judge = (args, _context, name) => {
  const parsed = parseArgs(args, AG);
  const operands = parsed.operands.slice(1);
  // As rg: hidden files are skipped unless told otherwise, every other file below is read.
  const unrestricted = hasOption(parsed, '--hidden', '-u', '--unrestricted', '-a', '--all-types', '-f', '--follow');
  return checked({ risk: 'read', reason: `\`${name}\` only reads`, recursiveReads: operands.length ? operands : [literal('.')], ...(unrestricted ? {} : { skipHidden: true }) }, parsed, AG, name);
};

/** find's actions that run a command: the words up to `;` or `+`. */
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);
const FIND_WRITE_FILE = new Set(['-fprint', '-fprint0', '-fprintf', '-fls']);
const FIND_VALUE = new Set([
  '-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-type', '-xtype', '-size', '-perm',
  '-user', '-group', '-uid', '-gid', '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin', '-newer', '-anewer', '-cnewer',
  '-maxdepth', '-mindepth', '-links', '-inum', '-samefile', '-lname', '-ilname', '-printf', '-regextype', '-fstype', '-used',
  '-newermt', '-newerct', '-newerat', '-context', '-regextype',
]);
/** find primaries and operators without a value that only select or print. */
const FIND_FLAGS = new Set([
  '-empty', '-true', '-false', '-readable', '-writable', '-executable', '-nouser', '-nogroup', '-print', '-print0', '-prune', '-quit', '-ls',
  '-depth', '-d', '-mount', '-xdev', '-follow', '-noleaf', '-daystart', '-ignore_readdir_race', '-noignore_readdir_race', '-not', '-and', '-or',
  '-a', '-o', '!', '(', ')', ',', '-help', '--help', '-version', '--version', '-s', '-x', '-E', '-X',
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
  const reads: Arg[] = [];
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
    else if (text === '-files0-from') reads.push(...args.slice(i + 1, ++i + 1));
    else if (!FIND_FLAGS.has(text)) verdict.concerns!.push(`the \`find\` primary ${text} is not known to assistant, so what it does cannot be proven`);
  }
  // What `-exec` runs gets the matched files: names given with -name/-path count as read (`-name .env -exec cat`).
  const named = args.filter((_a, j) => ['-name', '-iname', '-path', '-ipath'].includes(args[j - 1]?.value ?? ''));
  verdict.reads!.push(...reads);
  if (runs.length) return { ...verdict, risk: 'read', reason: '`find -exec` runs a command on every match', runs, writes, reads: [...verdict.reads!, ...named], metadataOnly: false };
  if (writes.length) return { ...verdict, risk: 'write', reason: '`find -delete` / `-fprint` changes files', writes };
  return verdict;
};

const FD: ArgSpec = {
  flags: ['-H', '-I', '-u', '-s', '-i', '-g', '-F', '-a', '-l', '-L', '-p', '-0', '-q', '-1', '-h', '-V', '--hidden', '--no-hidden', '--no-ignore', '--no-ignore-vcs', '--no-ignore-parent', '--unrestricted', '--case-sensitive', '--ignore-case', '--glob', '--regex', '--fixed-strings', '--absolute-path', '--relative-path', '--list-details', '--follow', '--full-path', '--print0', '--prune', '--quiet', '--show-errors', '--one-file-system', '--no-require-git', '--no-follow', '--help', '--version'],
  optional: ['--strip-cwd-prefix', '--hyperlink'],
  values: { '-e': 'text', '-E': 'text', '-t': 'text', '-d': 'text', '-j': 'text', '-S': 'text', '-c': 'text', '-o': 'text', '--extension': 'text', '--exclude': 'text', '--type': 'text', '--max-depth': 'text', '--min-depth': 'text', '--exact-depth': 'text', '--threads': 'text', '--size': 'text', '--changed-within': 'text', '--changed-before': 'text', '--owner': 'text', '--color': 'text', '--base-directory': 'read', '--search-path': 'read', '--format': 'text', '--max-results': 'text', '--ignore-file': 'read', '--path-separator': 'text', '--and': 'text' },
};
const fd: Judge = (args, _context, name) => {
  const execAt = args.findIndex((a) => a.value === null || /^(-x|--exec|-X|--exec-batch)(=|$)/.test(a.value) || /^--exec?-?/.test(a.value) && '--exec-batch'.startsWith(a.value.split('=')[0]!));
  if (execAt >= 0) return { risk: 'exec', reason: `\`${name} --exec\` runs a command on every match`, runs: [args.slice(execAt + 1)] };
  const parsed = parseArgs(args, FD);
  return checked({ risk: 'read', reason: `\`${name}\` only lists`, reads: parsed.operands.slice(1), metadataOnly: true }, parsed, FD, name);
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
