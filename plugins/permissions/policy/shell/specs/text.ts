import { basename, dirname } from 'node:path';
import { hasOption, optionValues, parseArgs, type ArgSpec } from '../argv.js';
import { checked, inert, reader, type Judge } from '../spec.js';
import { unsafeSedScript } from './sed-script.js';

/** Options common to the GNU checksum tools. */
const CHECKSUM: ArgSpec = {
  flags: ['-b', '-c', '-t', '-z', '-w', '--binary', '--check', '--text', '--tag', '--untagged', '--zero', '--quiet', '--status', '--strict', '--warn', '--ignore-missing', '-r', '-s', '-q', '-n', '-p'],
  values: ['-a', '--algorithm', '-l', '--length'],
};
const LS: ArgSpec = {
  flags: [
    '-a', '-A', '-b', '-B', '-c', '-C', '-d', '-f', '-F', '-g', '-G', '-h', '-H', '-i', '-k', '-l', '-L', '-m', '-n', '-N', '-o', '-p', '-q', '-Q', '-r', '-R',
    '-s', '-S', '-t', '-u', '-U', '-v', '-x', '-X', '-Z', '-1', '-@', '-e', '-O', '-P', '-T', '-W', '-%', '-,', '--all', '--almost-all', '--escape', '--ignore-backups',
    '--directory', '--file-type', '--no-group', '--human-readable', '--si', '--dereference-command-line', '--dereference-command-line-symlink-to-dir',
    '--inode', '--kibibytes', '--dereference', '--numeric-uid-gid', '--literal', '--hide-control-chars', '--show-control-chars', '--quote-name',
    '--reverse', '--recursive', '--size', '--group-directories-first', '--author', '--context', '--full-time', '--zero', '--help', '--version',
  ],
  optional: ['--color', '--colour', '--hyperlink', '--classify'],
  values: ['-I', '--ignore', '-w', '--width', '--format', '--sort', '--time', '--time-style', '--tabsize', '--hide', '--block-size', '--indicator-style', '--quoting-style', '-D'],
};

/** Readers and the options each knows; anything else keeps the command unproven. */
const READERS: Record<string, ArgSpec> = {
  cat: { flags: ['-A', '-b', '-e', '-E', '-n', '-s', '-t', '-T', '-u', '-v', '-l', '--show-all', '--number-nonblank', '--show-ends', '--number', '--squeeze-blank', '--show-tabs', '--show-nonprinting'] },
  tac: { flags: ['-b', '-r', '--before', '--regex'], values: ['-s', '--separator'] },
  nl: { flags: ['-p', '--no-renumber'], values: ['-b', '-d', '-f', '-h', '-i', '-l', '-n', '-s', '-v', '-w', '--body-numbering', '--section-delimiter', '--footer-numbering', '--header-numbering', '--line-increment', '--join-blank-lines', '--number-format', '--number-separator', '--starting-line-number', '--number-width'] },
  rev: { flags: [] },
  stat: { flags: ['-L', '-f', '-t', '-x', '-l', '-n', '-q', '-r', '-s', '--dereference', '--file-system', '--terse', '--cached'], values: ['-c', '--format', '--printf'] },
  realpath: { flags: ['-e', '-m', '-L', '-P', '-q', '-s', '-z', '--canonicalize-existing', '--canonicalize-missing', '--logical', '--physical', '--quiet', '--strip', '--no-symlinks', '--zero'], values: ['--relative-to', '--relative-base'] },
  readlink: { flags: ['-f', '-e', '-m', '-n', '-q', '-s', '-v', '-z', '--canonicalize', '--canonicalize-existing', '--canonicalize-missing', '--no-newline', '--quiet', '--silent', '--verbose', '--zero'] },
  cmp: { flags: ['-b', '-l', '-s', '--print-bytes', '--verbose', '--quiet', '--silent'], values: ['-i', '-n', '--ignore-initial', '--bytes'] },
  comm: { flags: ['-1', '-2', '-3', '-z', '--check-order', '--nocheck-order', '--total', '--zero-terminated'], values: ['--output-delimiter'] },
  paste: { flags: ['-s', '-z', '--serial', '--zero-terminated'], values: ['-d', '--delimiters'] },
  join: { flags: ['-i', '-z', '--ignore-case', '--check-order', '--nocheck-order', '--header', '--zero-terminated'], values: ['-t', '-1', '-2', '-j', '-o', '-a', '-v', '-e'] },
  fold: { flags: ['-b', '-s', '--bytes', '--spaces'], values: ['-w', '--width'], numeric: true },
  fmt: { flags: ['-c', '-t', '-s', '-u', '--crown-margin', '--tagged-paragraph', '--split-only', '--uniform-spacing'], values: ['-w', '--width', '-p', '--prefix', '-g', '--goal'], numeric: true },
  expand: { flags: ['-i', '--initial'], values: ['-t', '--tabs'], numeric: true },
  unexpand: { flags: ['-a', '--all', '--first-only'], values: ['-t', '--tabs'], numeric: true },
  pr: { flags: ['-a', '-c', '-d', '-F', '-f', '-J', '-m', '-r', '-t', '-T', '-v', '--across', '--show-control-chars', '--double-space', '--form-feed', '--join-lines', '--merge', '--no-file-warnings', '--omit-header', '--omit-pagination', '--show-nonprinting'], values: ['-w', '-W', '-l', '-h', '-o', '-N', '-s', '-S', '-e', '-i', '-n', '--width', '--page-width', '--length', '--header', '--indent', '--first-line-number', '--separator', '--sep-string', '--expand-tabs', '--output-tabs', '--number-lines', '--columns'], numeric: true },
  od: { flags: ['-b', '-c', '-d', '-f', '-i', '-l', '-o', '-s', '-x', '-v', '--output-duplicates', '--traditional'], values: ['-A', '-j', '-N', '-t', '-w', '-S', '--address-radix', '--skip-bytes', '--read-bytes', '--format', '--width', '--strings', '--endian'] },
  hexdump: { flags: ['-b', '-c', '-C', '-d', '-o', '-x', '-v', '--canonical', '--no-squeezing'], values: { '-n': 'text', '-s': 'text', '-e': 'text', '--length': 'text', '--skip': 'text', '--format': 'text', '-f': 'read', '--format-file': 'read' } },
  strings: { flags: ['-a', '-d', '-f', '-w', '--all', '--data', '--print-file-name', '--include-all-whitespace'], values: ['-n', '-t', '-e', '-T', '-s', '--bytes', '--radix', '--encoding', '--target', '--output-separator'], numeric: true },
  column: { flags: ['-t', '-x', '-n', '-e', '-J', '-L', '-r', '--table', '--fillrows', '--json', '--keep-empty-lines', '--table-noheadings', '--table-header-repeat'], values: ['-s', '-c', '-o', '-N', '-R', '-H', '-W', '-l', '-E', '-T', '-O', '-C', '-d', '-r', '--separator', '--output-width', '--output-separator', '--table-columns', '--table-right', '--table-hide', '--table-wrap', '--table-noextreme', '--table-truncate', '--table-order', '--table-name', '--table-column', '--table-columns-limit', '--tree', '--tree-id', '--tree-parent'] },
  md5sum: CHECKSUM, sha1sum: CHECKSUM, sha224sum: CHECKSUM, sha256sum: CHECKSUM, sha384sum: CHECKSUM, sha512sum: CHECKSUM, b2sum: CHECKSUM, shasum: CHECKSUM, cksum: CHECKSUM, sum: CHECKSUM, md5: { flags: ['-q', '-r', '-n', '-t'], values: ['-s'] },
  zcat: { flags: ['-f', '-q', '-v', '--force', '--quiet', '--verbose'] },
  bzcat: { flags: ['-s', '-q', '-v', '--small', '--quiet', '--verbose'] },
  xzcat: { flags: ['-q', '-v', '-Q', '--quiet', '--verbose'] },
  wc: { flags: ['-c', '-m', '-l', '-L', '-w', '--bytes', '--chars', '--lines', '--max-line-length', '--words'], optional: ['--total'], values: { '--files0-from': 'read' } },
  diff: {
    flags: [
      '-q', '-s', '-u', '-c', '-e', '-n', '-y', '-t', '-T', '-l', '-r', '-N', '-a', '-b', '-w', '-B', '-i', '-E', '-Z', '-p', '-d', '-H',
      '--brief', '--report-identical-files', '--normal', '--side-by-side', '--left-column', '--suppress-common-lines', '--show-c-function',
      '--new-file', '--unidirectional-new-file', '--ignore-case', '--ignore-tab-expansion', '--ignore-trailing-space', '--ignore-space-change',
      '--ignore-all-space', '--ignore-blank-lines', '--strip-trailing-cr', '--text', '--recursive', '--no-dereference', '--minimal',
      '--speed-large-files', '--expand-tabs', '--initial-tab', '--suppress-blank-empty', '--ignore-file-name-case', '--no-ignore-file-name-case',
    ],
    optional: ['--color', '--unified', '--context'],
    values: {
      '-U': 'text', '-C': 'text', '-I': 'text', '-x': 'text', '-L': 'text', '-W': 'text', '-F': 'text', '-X': 'read', '--exclude-from': 'read',
      '--ignore-matching-lines': 'text', '--exclude': 'text', '--label': 'text', '--width': 'text', '--line-format': 'text', '--old-line-format': 'text',
      '--new-line-format': 'text', '--unchanged-line-format': 'text', '--old-group-format': 'text', '--new-group-format': 'text', '--changed-group-format': 'text',
      '--unchanged-group-format': 'text', '--palette': 'text', '--show-function-line': 'text', '--tabsize': 'text', '--horizon-lines': 'text',
      '--starting-file': 'text', '--from-file': 'read', '--to-file': 'read',
    },
  },
  ls: LS,
  dir: LS,
  vdir: LS,
  du: {
    flags: ['-a', '-b', '-c', '-D', '-h', '-H', '-k', '-l', '-L', '-m', '-P', '-s', '-S', '-x', '-0', '-A', '-g', '-I', '-r', '--all', '--apparent-size', '--bytes', '--total', '--dereference-args', '--human-readable', '--si', '--count-links', '--dereference', '--no-dereference', '--separate-dirs', '--summarize', '--one-file-system', '--null', '--inodes'],
    optional: ['--time'],
    values: { '-d': 'text', '--max-depth': 'text', '-B': 'text', '--block-size': 'text', '-t': 'text', '--threshold': 'text', '--exclude': 'text', '--time-style': 'text', '-X': 'read', '--exclude-from': 'read', '--files0-from': 'read' },
  },
  df: { flags: ['-a', '-h', '-H', '-i', '-k', '-l', '-P', '-T', '-g', '-m', '--all', '--human-readable', '--si', '--inodes', '--local', '--portability', '--print-type', '--total', '--sync', '--no-sync'], optional: ['--output'], values: ['-B', '-t', '-x', '--block-size', '--type', '--exclude-type'] },
  lsattr: { flags: ['-R', '-V', '-a', '-d', '-v', '-l', '-p'] },
  getfacl: { flags: ['-a', '-d', '-c', '-e', '-E', '-s', '-R', '-L', '-P', '-t', '-n', '-p', '--access', '--default', '--omit-header', '--all-effective', '--no-effective', '--skip-base', '--recursive', '--logical', '--physical', '--tabular', '--numeric', '--absolute-names'] },
  look: { flags: ['-b', '-d', '-f', '-a', '--alternative', '--alphanum', '--ignore-case'], values: ['-t', '--terminate'] },
  numfmt: { flags: ['-z', '--grouping', '--debug', '--zero-terminated'], optional: ['--header'], values: ['-d', '--delimiter', '--from', '--from-unit', '--to', '--to-unit', '--format', '--padding', '--round', '--suffix', '--field', '--invalid'] },
  tsort: { flags: [] },
  head: { flags: ['-q', '-v', '-z', '--quiet', '--silent', '--verbose', '--zero-terminated'], values: ['-n', '-c', '--lines', '--bytes'], numeric: true },
  tail: { flags: ['-f', '-F', '-q', '-v', '-z', '-r', '--retry', '--quiet', '--silent', '--verbose', '--zero-terminated'], optional: ['--follow'], values: ['-n', '-c', '--lines', '--bytes', '-s', '--sleep-interval', '--pid', '--max-unchanged-stats'], numeric: true },
  cut: { flags: ['-s', '-z', '-n', '-w', '--complement', '--only-delimited', '--zero-terminated'], values: ['-d', '-f', '-c', '-b', '--delimiter', '--fields', '--characters', '--bytes', '--output-delimiter'] },
};

/** Commands that look at names, sizes and types, not contents. */
const METADATA = new Set(['ls', 'dir', 'vdir', 'du', 'df', 'stat', 'file', 'realpath', 'readlink', 'lsattr', 'getfacl']);

/** Pagers: read like cat, but `+cmd` operands and a few options run commands or write logs. */
const PAGER: ArgSpec = {
  flags: [
    '-N', '-S', '-R', '-r', '-i', '-I', '-F', '-X', '-M', '-m', '-n', '-s', '-q', '-Q', '-e', '-E', '-f', '-g', '-G', '-w', '-W', '-c', '-C', '-K', '-L',
    '-a', '-B', '-J', '-V', '-~', '-d', '-l', '-u', '--LINE-NUMBERS', '--chop-long-lines', '--RAW-CONTROL-CHARS', '--raw-control-chars',
    '--quit-if-one-screen', '--no-init', '--ignore-case', '--IGNORE-CASE', '--squeeze-blank-lines', '--line-numbers', '--quiet', '--silent',
    '--long-prompt', '--quit-at-eof', '--QUIT-AT-EOF', '--no-lessopen', '--mouse', '--wordwrap', '--version', '--help',
  ],
  values: ['-x', '-b', '-h', '-y', '-z', '-P', '-j', '-p', '--tabs', '--buffers', '--max-back-scroll', '--max-forw-scroll', '--window', '--prompt', '--jump-target', '--pattern'],
  numeric: true,
};
const pager: Judge = (args, _context, name) => {
  const parsed = parseArgs(args, PAGER);
  const commands = parsed.operands.filter((a) => a.value === null || (a.value.startsWith('+') && !/^\+\d+$/.test(a.value)));
  if (commands.length) return { risk: 'exec', reason: `\`${name} +cmd\` runs pager commands at start (${commands.map((a) => a.template).join(', ')})` };
  return checked({ risk: 'read', reason: `\`${name}\` only reads`, reads: parsed.operands.filter((a) => !(a.value ?? '').startsWith('+')) }, parsed, PAGER, name);
};

/** man and info: the pager, browser, preprocessors and config they use are options too. */
const MAN: ArgSpec = {
  flags: ['-a', '-f', '-k', '-w', '-W', '-K', '-i', '-I', '-u', '-7', '-E', '--all', '--whatis', '--apropos', '--where', '--path', '--where-cat', '--location', '--location-cat', '--ignore-case', '--match-case', '--regex', '--wildcard', '--names-only', '--global-apropos', '--update', '--ascii', '--no-hyphenation', '--no-justification', '--no-subpages', '--version', '--help', '--usage', '--debug', '-d'],
  values: ['-s', '-S', '--sections', '-L', '--locale', '-m', '--systems', '-e', '--extension', '-R', '--recode', '--encoding'],
  numeric: true,
};
const INFO: ArgSpec = { flags: ['-a', '-k', '-w', '--all', '--apropos', '--where', '--location', '--help', '--version', '--vi-keys', '--show-options', '--usage'], values: ['-n', '--node', '-d', '--directory'] };

/** Shell builtins and small tools whose arguments are not paths. */
const inertCommands = [
  'echo', 'pwd', 'whoami', 'id', 'groups', 'uname', 'true', 'false', 'seq', 'sleep', 'expr', 'which', 'whereis', 'type', 'printenv',
  'locale', 'nproc', 'uptime', 'free', 'arch', 'tty', ':', 'jobs', 'wait', 'getconf', 'cal', 'help', 'logname', 'users',
  'w', 'env', 'shift', 'return', 'exit', 'break', 'continue', 'times', 'umask', 'yes', 'factor', 'lsb_release', 'sw_vers', 'vm_stat',
  'top', 'htop', 'pgrep', 'tput', 'clear',
];

/**
 * ps: BSD-style options without a dash that hold `e` (`ps e`, `ps auxe`, `ps eww`) print every
 * process's environment, the agent's API keys included: that is a read of /proc/…/environ, a secret.
 */
const ps: Judge = (args, _context, name) => {
  // A word after an option that takes a value (`-u steve`, `--pid 1`) is that value, not BSD options.
  const takesValue = (prev: string | null | undefined) => !!prev && (/^-[A-Za-z]*[pPuUgGoOtCqsk]$/.test(prev) || /^--[a-z-]+$/.test(prev));
  const environment = args.some((a, i) => a.value === null || /environ/i.test(a.value) || (!a.value.startsWith('-') && !takesValue(args[i - 1]?.value) && /^[A-Za-z]*e[A-Za-z]*$/.test(a.value)));
  const environ = { value: '/proc/*/environ', template: '/proc/*/environ', glob: true };
  return environment ? { risk: 'read', reason: `\`${name}\` with \`e\` prints every process's environment`, reads: [environ] } : { risk: 'read', reason: `\`${name}\` only prints`, inert: true };
};

const SED: ArgSpec = {
  flags: ['-n', '-E', '-r', '-s', '-u', '-z', '--quiet', '--silent', '--regexp-extended', '--separate', '--unbuffered', '--null-data', '--posix', '--sandbox', '--debug', '--follow-symlinks'],
  values: { '-e': 'text', '--expression': 'text', '-f': 'read', '--file': 'read', '-l': 'text', '--line-length': 'text' },
  optional: ['--in-place'],
};

const sed: Judge = (args, _context, name) => {
  const parsed = parseArgs(args, { ...SED, flags: [...SED.flags!, '-i', '-I'] });
  const operands = [...parsed.operands];
  const files = optionValues(parsed, '-f', '--file');
  if (hasOption(parsed, '-i', '-I', '--in-place')) return { risk: 'write', reason: `\`${name} -i\` edits files in place`, writes: operands, reads: files };
  if (files.length) return { risk: 'exec', reason: `the \`${name}\` script comes from a file, which may write files or run commands`, reads: [...operands, ...files] };
  const scripts = optionValues(parsed, '-e', '--expression');
  if (!scripts.length && operands.length) scripts.push(operands.shift()!);
  const texts = scripts.map((s) => s.value);
  if (texts.some((t) => t === null)) return { risk: 'exec', reason: `the \`${name}\` script is only known at run time`, reads: operands };
  // Each -e is a line of one script: check them alone and joined (a trailing `a\` continues into the next).
  const why = [...texts, texts.join('\n')].map((t) => unsafeSedScript(t!)).find(Boolean);
  if (why) return { risk: 'exec', reason: `the \`${name}\` script cannot be proven to only print: ${why}`, reads: operands };
  return checked({ risk: 'read', reason: `\`${name}\` without -i only prints`, reads: operands }, parsed, SED, name);
};

/** awk programs that run commands, read or write files other than their operands, or load code. */
const AWK_UNSAFE = /\bsystem\b|\bgetline\b|\|(?!\|)|\bprintf?\b[^;{}]*?>|\bfflush\b|\bclose\b|@|\bENVIRON\b\s*\[[^\]]*\]\s*=|\bPROCINFO\b/;
const AWK: ArgSpec = { flags: [], values: { '-F': 'text', '-v': 'text', '--field-separator': 'text', '--assign': 'text', '-e': 'text', '--source': 'text' } };

const awk: Judge = (args, _context, name) => {
  const parsed = parseArgs(args, { ...AWK, values: { ...AWK.values as Record<string, 'text'>, '-f': 'text', '--file': 'text', '-E': 'text', '--exec': 'text', '-i': 'text', '--include': 'text', '-l': 'text', '--load': 'text' } });
  const operands = [...parsed.operands];
  const fromFiles = optionValues(parsed, '-f', '--file', '-E', '--exec');
  const sources = optionValues(parsed, '-e', '--source');
  const program = fromFiles.length || sources.length ? undefined : operands.shift();
  const files = operands.filter((a) => !(a.value ?? '').match(/^[A-Za-z_][A-Za-z0-9_]*=/));
  if (hasOption(parsed, '-i', '--include', '-l', '--load')) return { risk: 'exec', reason: `\`${name}\` loads extension code`, reads: files };
  if (fromFiles.length) return { risk: 'exec', reason: `\`${name}\` runs a program from a file`, reads: [...files, ...fromFiles] };
  const programs = [...sources, ...(program ? [program] : [])];
  if (!programs.length || programs.some((p) => p.value === null || AWK_UNSAFE.test(p.value)))
    return { risk: 'exec', reason: `the \`${name}\` program runs commands, reads or writes other files, or is only known at run time`, reads: files };
  return checked({ risk: 'read', reason: `the \`${name}\` program only prints`, reads: files }, parsed, AWK, name);
};

const SORT: ArgSpec = {
  flags: ['-b', '-d', '-f', '-g', '-i', '-M', '-h', '-n', '-R', '-r', '-V', '-c', '-C', '-m', '-s', '-u', '-z', '--ignore-leading-blanks', '--dictionary-order', '--ignore-case', '--general-numeric-sort', '--ignore-nonprinting', '--month-sort', '--human-numeric-sort', '--numeric-sort', '--random-sort', '--reverse', '--version-sort', '--merge', '--stable', '--unique', '--zero-terminated', '--debug'],
  optional: ['--check'],
  values: { '-k': 'text', '-t': 'text', '-S': 'text', '-T': 'text', '--key': 'text', '--field-separator': 'text', '--buffer-size': 'text', '--temporary-directory': 'text', '--parallel': 'text', '--batch-size': 'text', '--sort': 'text', '--random-source': 'read', '--files0-from': 'read', '-o': 'write', '--output': 'write', '--compress-program': 'code' },
};
const sort = reader(SORT, () => ({ reason: '`sort` only prints' }));

const UNIQ: ArgSpec = { flags: ['-c', '-d', '-D', '-i', '-u', '-z', '--count', '--repeated', '--ignore-case', '--unique', '--zero-terminated'], optional: ['--all-repeated', '--group'], values: ['-f', '-s', '-w', '--skip-fields', '--skip-chars', '--check-chars'], numeric: true };
const uniq: Judge = (args, _context, name) => {
  const parsed = parseArgs(args, UNIQ);
  const [input, output] = parsed.operands;
  if (output) return { risk: 'write', reason: `\`${name} IN OUT\` writes OUT`, writes: [output], reads: input ? [input] : [] };
  return checked({ risk: 'read', reason: `\`${name}\` only prints`, reads: input ? [input] : [] }, parsed, UNIQ, name);
};

const tee: Judge = (args, _context, name) => {
  const spec: ArgSpec = { flags: ['-a', '-i', '-p', '--append', '--ignore-interrupts'], optional: ['--output-error'] };
  const parsed = parseArgs(args, spec);
  if (parsed.operands.length) return { risk: 'write', reason: `\`${name}\` writes files`, writes: parsed.operands };
  return checked({ risk: 'read', reason: `\`${name}\` with no file only prints` }, parsed, spec, name);
};

const XXD: ArgSpec = { flags: ['-a', '-b', '-C', '-E', '-e', '-i', '-p', '-u', '-d', '-h', '-v'], values: ['-c', '-g', '-l', '-s', '-o', '-n', '-R'] };
const xxd: Judge = (args, _context, name) => {
  const parsed = parseArgs(args, { ...XXD, flags: [...XXD.flags!, '-r'] });
  const [input, output] = parsed.operands;
  if (output) return { risk: 'write', reason: `\`${name} IN OUT\` writes OUT`, writes: [output], reads: input ? [input] : [] };
  return checked({ risk: 'read', reason: `\`${name}\` only prints`, reads: input ? [input] : [] }, parsed, { ...XXD, flags: [...XXD.flags!, '-r'] }, name);
};

const BASE64: ArgSpec = { flags: ['-d', '-i', '-D', '--decode', '--ignore-garbage'], values: { '-w': 'text', '--wrap': 'text', '-b': 'text', '--break': 'text', '--input': 'read', '-o': 'write', '--output': 'write' } };
const base64 = reader(BASE64);

const TREE: ArgSpec = {
  flags: ['-a', '-d', '-l', '-f', '-x', '-q', '-N', '-Q', '-p', '-u', '-g', '-s', '-h', '-D', '-F', '-v', '-t', '-c', '-U', '-r', '-i', '-A', '-S', '-n', '-C', '-J', '-X', '--noreport', '--dirsfirst', '--prune', '--du', '--si', '--gitignore', '--matchdirs', '--ignore-case', '--inodes', '--device', '--help', '--version'],
  values: { '-L': 'text', '-P': 'text', '-I': 'text', '-H': 'text', '-T': 'text', '--filelimit': 'text', '--timefmt': 'text', '--sort': 'text', '--charset': 'text', '-o': 'write', '--output': 'write' },
};
const tree = reader(TREE, () => ({ reason: '`tree` only lists', metadataOnly: true }));

const DATE: ArgSpec = { flags: ['-u', '-R', '--utc', '--universal', '--rfc-email', '--debug', '--help', '--version'], optional: ['--iso-8601', '-I'], values: { '-d': 'text', '--date': 'text', '--rfc-3339': 'text', '-f': 'read', '--file': 'read', '-r': 'read', '--reference': 'read' } };
const date: Judge = (args, _context, name) => {
  const parsed = parseArgs(args, { ...DATE, values: { ...(DATE.values as Record<string, 'text'>), '-s': 'text', '--set': 'text' } });
  if (hasOption(parsed, '-s', '--set') || parsed.operands.some((a) => !(a.value ?? '+').startsWith('+'))) return { risk: 'write', reason: `\`${name}\` with a time sets the system clock` };
  return checked({ risk: 'read', reason: `\`${name}\` only prints`, inert: true }, parsed, DATE, name);
};

const HOSTNAME: ArgSpec = { flags: ['-f', '-i', '-I', '-s', '-d', '-a', '-A', '-y', '--fqdn', '--long', '--short', '--domain', '--ip-address', '--all-ip-addresses', '--all-fqdns', '--alias', '--help', '--version'] };
const hostname: Judge = (args, _context, name) => {
  const parsed = parseArgs(args, { ...HOSTNAME, values: ['-F', '--file'], flags: [...HOSTNAME.flags!, '-b', '--boot'] });
  if (parsed.operands.length || hasOption(parsed, '-F', '--file', '-b', '--boot')) return { risk: 'write', reason: `\`${name} NAME\` renames the machine` };
  return checked({ risk: 'read', reason: `\`${name}\` only prints`, inert: true }, parsed, HOSTNAME, name);
};

const JQ_FLAGS = new Set(['-r', '-j', '-a', '-c', '-n', '-e', '-s', '-S', '-C', '-M', '-R', '-h', '-V', '--tab', '--raw-output', '--join-output', '--ascii-output', '--compact-output', '--null-input', '--exit-status', '--slurp', '--sort-keys', '--color-output', '--monochrome-output', '--seq', '--stream', '--stream-errors', '--raw-input', '--raw-output0', '--unbuffered', '--help', '--version', '--args', '--jsonargs']);

/** jq reads JSON and prints; `--rawfile`/`--slurpfile`/`-f` read files, `-L` loads modules from a directory. */
const jq: Judge = (args, _context, name) => {
  const pairOptions = new Set(['--arg', '--argjson', '--slurpfile', '--rawfile']);
  const reads = [];
  const rest = [];
  const unknown: string[] = [];
  let filterSeen = false;
  let argsMode = false;
  let onlyOperands = false;
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.value;
    if (!onlyOperands && text === '--') onlyOperands = true;
    else if (!onlyOperands && text !== null && pairOptions.has(text)) {
      if (text === '--slurpfile' || text === '--rawfile') reads.push(...args.slice(i + 2, i + 3));
      i += 2;
    } else if (!onlyOperands && (text === '--args' || text === '--jsonargs')) argsMode = true;
    else if (!onlyOperands && (text === '--indent')) i++;
    else if (!onlyOperands && (text === '-f' || text === '--from-file')) {
      reads.push(...args.slice(i + 1, i + 2));
      filterSeen = true;
      i++;
    } else if (!onlyOperands && text !== null && text.startsWith('-') && text !== '-') {
      const letters = text.startsWith('--') ? [text] : [...text.slice(1)].map((c) => '-' + c);
      for (const letter of letters) if (!JQ_FLAGS.has(letter)) unknown.push(text);
    } else if (!filterSeen) filterSeen = true;
    else if (!argsMode) rest.push(args[i]!);
  }
  const concerns = unknown.length ? [`\`${name}\` is given an option assistant does not know (${[...new Set(unknown)].join(', ')}), so what it does cannot be proven`] : [];
  return { risk: 'read', reason: `\`${name}\` only reads`, reads: [...reads, ...rest], concerns };
};

const YQ: ArgSpec = {
  flags: ['-P', '-C', '-M', '-e', '-n', '-r', '-j', '-N', '-v', '-V', '-h', '--prettyPrint', '--colors', '--no-colors', '--exit-status', '--null-input', '--unwrapScalar', '--no-doc', '--help', '--version'],
  values: { '-o': 'text', '--output-format': 'text', '-p': 'text', '--input-format': 'text', '--indent': 'text', '-I': 'text', '--from-file': 'read' },
};
/** yq (mikefarah): `load`/`load_str` read any file, `-i` edits in place, `--split-exp` writes files. */
const yq: Judge = (args, _context, name) => {
  const parsed = parseArgs(args, { ...YQ, flags: [...YQ.flags!, '-i', '--inplace'] });
  const operands = [...parsed.operands];
  const expression = !hasOption(parsed, '--from-file') && operands.length && !/\.(ya?ml|json|xml|toml|csv|tsv|properties)$/i.test(operands[0]!.value ?? '') ? operands.shift() : undefined;
  if (hasOption(parsed, '-i', '--inplace')) return { risk: 'write', reason: `\`${name} -i\` edits files in place`, writes: operands };
  if (expression && (expression.value === null || /\bload|\bfrom_file|\beval\b|\benv\b|\bstrenv\b/.test(expression.value)))
    return { risk: 'exec', reason: `the \`${name}\` expression loads files or evaluates expressions` , reads: operands };
  return checked({ risk: 'read', reason: `\`${name}\` only prints`, reads: operands }, parsed, YQ, name);
};

const ICONV: ArgSpec = { flags: ['-c', '-s', '-l', '--silent', '--list'], values: { '-f': 'text', '-t': 'text', '--from-code': 'text', '--to-code': 'text', '-o': 'write', '--output': 'write' } };
const iconv = reader(ICONV);

const FILE: ArgSpec = {
  flags: ['-b', '-i', '-I', '-L', '-h', '-z', '-Z', '-k', '-N', '-n', '-r', '-s', '-0', '-p', '-E', '-l', '-S', '-d', '--brief', '--mime', '--mime-type', '--mime-encoding', '--dereference', '--no-dereference', '--uncompress', '--uncompress-noreport', '--keep-going', '--no-pad', '--no-buffer', '--raw', '--special-files', '--print0', '--preserve-date', '--list', '--no-sandbox', '--extension', '--apple', '--help', '--version'],
  values: { '-e': 'text', '--exclude': 'text', '--exclude-quiet': 'text', '-F': 'text', '--separator': 'text', '-P': 'text', '--parameter': 'text', '-m': 'read', '--magic-file': 'read', '-f': 'read', '--files-from': 'read' },
};
const file: Judge = (args, _context, name) => {
  const parsed = parseArgs(args, { ...FILE, flags: [...FILE.flags!, '-C', '--compile'] });
  if (hasOption(parsed, '-C', '--compile')) return { risk: 'write', reason: `\`${name} -C\` writes a compiled magic file`, writesUnknown: true };
  return checked({ risk: 'read', reason: `\`${name}\` only reads`, reads: parsed.operands, metadataOnly: true }, parsed, FILE, name);
};

/** `dirname`, `basename`, `pwd`: their output is known when their arguments are, so `rm -rf "$(dirname $PWD)"` is judged. */
const pathPrinter = (compute: (operands: string[]) => string | undefined): Judge => (args, _context, name) => {
  const operands = args.filter((a) => !(a.value ?? 'x').startsWith('-'));
  const values = operands.map((a) => a.value);
  const output = args.length === operands.length && values.every((v): v is string => v !== null) ? compute(values) : undefined;
  return { risk: 'read', reason: `\`${name}\` only prints`, inert: true, ...(output !== undefined ? { output } : {}) };
};

/** Commands that read or print text. */
export const textSpecs: Record<string, Judge> = {
  ...Object.fromEntries(inertCommands.map((name) => [name, inert()])),
  ps,
  ...Object.fromEntries(Object.entries(READERS).map(([name, spec]) => [name, reader(spec, () => (METADATA.has(name) ? { metadataOnly: true } : undefined))])),
  // `diff -r` reads whole trees: secrets below a directory count.
  diff: reader(READERS.diff!, (parsed) => (hasOption(parsed, '-r', '--recursive') ? { reads: [], recursiveReads: parsed.operands } : undefined)),
  // `stty` changes terminal (or, with -F, device) settings unless it only prints them.
  stty: (args, _context, name) =>
    args.every((a) => ['-a', '--all', '-g', '--save', 'size', 'speed'].includes(a.value ?? '')) ? { risk: 'read', reason: `\`${name}\` only prints`, inert: true } : { risk: 'write', reason: `\`${name}\` changes terminal settings` },
  // `last -f FILE` / `who FILE` read a login database from any file.
  last: (args, _context, name) => {
    const parsed = parseArgs(args, { values: ['-f', '--file', '-n', '--limit', '-s', '--since', '-t', '--until', '-p', '--present', '--time-format'] });
    return { risk: 'read', reason: `\`${name}\` only prints`, reads: optionValues(parsed, '-f', '--file') };
  },
  who: (args, _context, name) => ({ risk: 'read', reason: `\`${name}\` only prints`, reads: args.filter((a) => a.value === null || !a.value.startsWith('-')).filter((a) => !['am', 'i', 'I', 'mom', 'likes'].includes(a.value ?? '')) }),
  lastb: (_args, _context, name) => ({ risk: 'unknown', reason: `\`${name}\` is not a command assistant knows to be safe` }),
  less: pager,
  more: pager,
  zless: pager,
  most: (_args, _context, name) => ({ risk: 'unknown', reason: `\`${name}\` is not a command assistant knows to be safe` }),
  // `man ./page.1` formats a local file (groff): only pages by name are proven.
  man: (args, context, name) => {
    const verdict = inert(MAN)(args, context, name);
    const files = parseArgs(args, MAN).operands.filter((a) => a.value === null || a.value.includes('/'));
    return files.length ? { ...verdict, concerns: [...(verdict.concerns ?? []), `\`${name}\` formats a local file (${files.map((a) => a.template).join(', ')})`] } : verdict;
  },
  info: inert(INFO),
  dirname: pathPrinter((values) => (values.length === 1 ? dirname(values[0]!) : undefined)),
  basename: pathPrinter((values) => (values.length === 1 ? basename(values[0]!) : undefined)),
  sed,
  gsed: sed,
  iconv,
  file,
  awk,
  gawk: awk,
  mawk: awk,
  nawk: awk,
  sort,
  uniq,
  tee,
  xxd,
  base64,
  tree,
  date,
  hostname,
  jq,
  yq,
  tr: inert(),
};
