import { hasOption, optionValues, parseArgs } from '../argv.js';
import { fixed, inert, reader, type Judge } from '../spec.js';

const plainReaders = [
  'cat', 'tac', 'nl', 'rev', 'file', 'stat', 'realpath', 'readlink', 'cmp', 'comm', 'paste', 'join', 'fold', 'fmt', 'expand',
  'unexpand', 'pr', 'od', 'hexdump', 'strings', 'column', 'md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum',
  'sha512sum', 'b2sum', 'cksum', 'sum', 'zcat', 'bzcat', 'xzcat', 'zless', 'less', 'more', 'wc', 'diff', 'ls', 'dir', 'vdir',
  'du', 'df', 'lsattr', 'getfacl', 'shasum', 'md5', 'look', 'iconv', 'numfmt', 'tsort', 'ptx',
];

const readerValues: Record<string, readonly string[]> = {
  head: ['-n', '-c', '--lines', '--bytes'],
  tail: ['-n', '-c', '--lines', '--bytes', '-s', '--sleep-interval', '--pid'],
  cut: ['-d', '-f', '-c', '-b', '--delimiter', '--fields', '--characters', '--bytes', '--output-delimiter'],
  column: ['-s', '-c', '-o', '-N', '-R', '-H', '-W', '-l'],
  ls: ['-I', '--ignore', '-w', '--width', '--format', '--sort', '--time', '--time-style', '-T', '--tabsize', '--hide', '--block-size', '--indicator-style', '--quoting-style'],
  du: ['-d', '--max-depth', '-B', '--block-size', '-t', '--threshold', '--exclude', '-X', '--exclude-from', '--time-style'],
  df: ['-B', '--block-size', '-t', '--type', '-x', '--exclude-type'],
  diff: ['-U', '-C', '--unified', '--context', '-I', '--ignore-matching-lines', '-x', '--exclude', '-X', '--exclude-from', '-L', '--label', '-W', '--width', '--line-format', '--palette', '-F', '--show-function-line'],
  od: ['-A', '-j', '-N', '-t', '-w', '--address-radix', '--skip-bytes', '--read-bytes', '--format', '--width'],
  hexdump: ['-n', '-s', '-e', '-f'],
  strings: ['-n', '-t', '-e', '--bytes', '--radix', '--encoding'],
  fold: ['-w', '--width'],
  fmt: ['-w', '--width', '-p', '--prefix', '-g', '--goal'],
  nl: ['-b', '-d', '-f', '-h', '-i', '-l', '-n', '-s', '-v', '-w'],
  paste: ['-d', '--delimiters'],
  join: ['-t', '-1', '-2', '-j', '-o', '-a', '-v', '-e'],
  pr: ['-w', '-l', '-h', '-o', '-N', '-s', '-S', '-e', '-i', '-n'],
  iconv: ['-f', '-t', '--from-code', '--to-code'],
  stat: ['-c', '--format', '--printf'],
  file: ['-m', '--magic-file', '-e', '--exclude', '-F', '--separator', '-P', '--parameter'],
};

const inertCommands = [
  'echo', 'printf', 'pwd', 'whoami', 'id', 'groups', 'uname', 'true', 'false', 'test', '[', 'seq', 'sleep', 'expr', 'basename',
  'dirname', 'which', 'whereis', 'type', 'printenv', 'locale', 'nproc', 'uptime', 'free', 'ps', 'arch', 'tty', ':', 'set',
  'read', 'jobs', 'wait', 'let', 'getconf', 'cal', 'man', 'info', 'help', 'logname', 'users', 'who', 'w', 'last',
  'env', 'shift', 'return', 'exit', 'break', 'continue', 'times', 'umask', 'yes', 'factor', 'lsb_release', 'sw_vers',
  'vm_stat', 'top', 'htop', 'pgrep', 'compgen', 'declare', 'typeset', 'tput', 'clear', 'stty',
];

/** Where `sed` is told to write a file (`w file`), or run a command (`e`), in its script. */
const SED_WRITE_OR_EXEC = /(^|[;{}\n0-9$\/,!])\s*[wWe](\s|$|;)|\/[gIiMmp0-9]*[we][gIiMmp0-9]*(\s|;|}|$)/;

const sed: Judge = (args) => {
  const parsed = parseArgs(args, { values: ['-e', '-f', '--expression', '--file', '-l', '--line-length'] });
  const inPlace = [...parsed.options.keys()].some((k) => k === '-i' || k === '--in-place' || k === '-I');
  const scripts = optionValues(parsed, '-e', '--expression');
  const operands = [...parsed.operands];
  if (!scripts.length && !hasOption(parsed, '-f', '--file') && operands.length) scripts.push(operands.shift()!);
  const files = [...operands, ...optionValues(parsed, '-f', '--file')];
  if (inPlace) return { risk: 'write', reason: '`sed -i` edits files in place', writes: operands, reads: optionValues(parsed, '-f', '--file') };
  if (hasOption(parsed, '-f', '--file')) return { risk: 'exec', reason: 'the `sed` script comes from a file, which may write files or run commands', reads: files };
  if (scripts.some((s) => s.value === null || SED_WRITE_OR_EXEC.test(s.value)))
    return { risk: 'exec', reason: 'the `sed` script writes files or runs commands (w/e), or is only known at run time', reads: files };
  return { risk: 'read', reason: '`sed` without -i only prints', reads: files };
};

const AWK_WRITE_OR_EXEC = /\bsystem\s*\(|(^|[^|])\|(?!\|)|\bprintf?\b[^;{}]*?>|\bfflush\b|\bclose\s*\(/;

const awk: Judge = (args, _context, name) => {
  const parsed = parseArgs(args, { values: ['-f', '-v', '-F', '--file', '--assign', '--field-separator', '-i', '--include', '-l', '--load'] });
  const operands = [...parsed.operands];
  const program = hasOption(parsed, '-f', '--file') ? undefined : operands.shift();
  const files = operands.filter((a) => !(a.value ?? '').match(/^[A-Za-z_][A-Za-z0-9_]*=/));
  if (hasOption(parsed, '-i', '--include', '-l', '--load')) return { risk: 'exec', reason: `\`${name}\` loads extension code`, reads: files };
  if (program && (program.value === null || AWK_WRITE_OR_EXEC.test(program.value)))
    return { risk: 'exec', reason: `the \`${name}\` program writes files or runs commands, or is only known at run time`, reads: files };
  if (!program) return { risk: 'exec', reason: `\`${name}\` runs a program from a file`, reads: [...files, ...optionValues(parsed, '-f', '--file')] };
  return { risk: 'read', reason: `the \`${name}\` program only prints`, reads: files };
};

const sort: Judge = (args) => {
  const parsed = parseArgs(args, { values: ['-k', '-t', '-S', '-T', '-o', '--key', '--field-separator', '--buffer-size', '--temporary-directory', '--output', '--parallel', '--files0-from', '--batch-size', '--compress-program', '--random-source'] });
  const outputs = optionValues(parsed, '-o', '--output');
  if (hasOption(parsed, '--compress-program')) return { risk: 'exec', reason: '`sort --compress-program` runs a program' };
  if (outputs.length) return { risk: 'write', reason: '`sort -o` writes a file', writes: outputs, reads: parsed.operands };
  return { risk: 'read', reason: '`sort` only prints', reads: [...parsed.operands, ...optionValues(parsed, '--files0-from')] };
};

const uniq: Judge = (args) => {
  const parsed = parseArgs(args, { values: ['-f', '-s', '-w', '--skip-fields', '--skip-chars', '--check-chars', '--group', '--all-repeated'] });
  const [input, output] = parsed.operands;
  if (output) return { risk: 'write', reason: '`uniq IN OUT` writes OUT', writes: [output], reads: input ? [input] : [] };
  return { risk: 'read', reason: '`uniq` only prints', reads: input ? [input] : [] };
};

const tee: Judge = (args) => {
  const files = parseArgs(args, { values: ['--output-error'] }).operands;
  if (!files.length) return { risk: 'read', reason: '`tee` with no file only prints' };
  return { risk: 'write', reason: '`tee` writes files', writes: files };
};

const xxd: Judge = (args) => {
  const parsed = parseArgs(args, { values: ['-c', '-g', '-l', '-s', '-o', '-n', '-cols', '-len', '-seek'] });
  const [input, output] = parsed.operands;
  if (output) return { risk: 'write', reason: '`xxd IN OUT` writes OUT', writes: [output], reads: input ? [input] : [] };
  return { risk: 'read', reason: '`xxd` only prints', reads: input ? [input] : [] };
};

const base64: Judge = (args) => {
  const parsed = parseArgs(args, { values: ['-w', '--wrap', '--input', '-o', '--output', '-b', '--break'] });
  const outputs = optionValues(parsed, '-o', '--output');
  const reads = [...parsed.operands, ...optionValues(parsed, '--input')];
  if (outputs.length) return { risk: 'write', reason: '`base64 -o` writes a file', writes: outputs, reads };
  return { risk: 'read', reason: '`base64` only prints', reads };
};

const tree: Judge = (args) => {
  const parsed = parseArgs(args, { values: ['-L', '-P', '-I', '-o', '--filelimit', '--timefmt', '--sort', '--charset', '-H', '-T'] });
  const outputs = optionValues(parsed, '-o');
  if (outputs.length) return { risk: 'write', reason: '`tree -o` writes a file', writes: outputs, reads: parsed.operands };
  return { risk: 'read', reason: '`tree` only lists', reads: parsed.operands, metadataOnly: true };
};

const date: Judge = (args) => {
  const parsed = parseArgs(args, { values: ['-d', '--date', '-f', '--file', '-r', '--reference', '--rfc-3339'] });
  if (hasOption(parsed, '-s', '--set') || parsed.operands.some((a) => !(a.value ?? '+').startsWith('+')))
    return { risk: 'write', reason: '`date` with a time sets the system clock' };
  return { risk: 'read', reason: '`date` only prints', reads: optionValues(parsed, '-f', '--file', '-r', '--reference'), inert: true };
};

const hostname: Judge = (args) => {
  const parsed = parseArgs(args, { values: ['-F', '--file'] });
  if (parsed.operands.length || hasOption(parsed, '-F', '--file', '-b', '--boot')) return { risk: 'write', reason: '`hostname NAME` renames the machine' };
  return { risk: 'read', reason: '`hostname` only prints', inert: true };
};

const jq: Judge = (args) => {
  const valueOptions = ['--indent', '-L', '--tab', '--from-file', '-f'];
  const pairOptions = new Set(['--arg', '--argjson', '--slurpfile', '--rawfile']);
  const reads = [];
  const rest = [];
  let filterSeen = false;
  let argsMode = false;
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.value;
    if (text !== null && pairOptions.has(text)) {
      if (text === '--slurpfile' || text === '--rawfile') reads.push(...args.slice(i + 2, i + 3));
      i += 2;
    } else if (text === '--args' || text === '--jsonargs') argsMode = true;
    else if (text !== null && valueOptions.includes(text)) {
      if (text === '-f' || text === '--from-file') {
        reads.push(...args.slice(i + 1, i + 2));
        filterSeen = true;
      }
      i++;
    } else if (text !== null && text.startsWith('-') && text !== '-') continue;
    else if (!filterSeen) filterSeen = true;
    else if (!argsMode) rest.push(args[i]!);
  }
  return { risk: 'read', reason: '`jq` only reads', reads: [...reads, ...rest] };
};

const yq: Judge = (args) => {
  const parsed = parseArgs(args, { values: ['-o', '--output-format', '-p', '--input-format', '--indent', '-I', '--from-file'] });
  const operands = [...parsed.operands];
  if (!hasOption(parsed, '--from-file') && operands.length && !/\.(ya?ml|json|xml|toml|csv|tsv|properties)$/i.test(operands[0]!.value ?? '')) operands.shift();
  if (hasOption(parsed, '-i', '--inplace')) return { risk: 'write', reason: '`yq -i` edits files in place', writes: operands };
  return { risk: 'read', reason: '`yq` only prints', reads: operands };
};

/** Readers that can also write a file (`iconv -o`, `file -C`). */
const iconv: Judge = (args) => {
  const parsed = parseArgs(args, { values: ['-f', '-t', '--from-code', '--to-code', '-o', '--output'] });
  const outputs = optionValues(parsed, '-o', '--output');
  return outputs.length ? { risk: 'write', reason: '`iconv -o` writes a file', writes: outputs, reads: parsed.operands } : { risk: 'read', reason: '`iconv` only prints', reads: parsed.operands };
};
const file: Judge = (args) => {
  const parsed = parseArgs(args, readerSpecFor('file'));
  if (hasOption(parsed, '-C', '--compile')) return { risk: 'write', reason: '`file -C` writes a compiled magic file', writesUnknown: true };
  return { risk: 'read', reason: '`file` only reads', reads: parsed.operands, metadataOnly: true };
};
function readerSpecFor(name: string) {
  return { values: readerValues[name] ?? [] };
}

/** Commands that look at names, sizes and types, not contents. */
const METADATA = new Set(['ls', 'dir', 'vdir', 'du', 'df', 'stat', 'file', 'realpath', 'readlink', 'lsattr', 'getfacl']);
const metadataReader = (values: readonly string[]) => reader(values, () => ({ metadataOnly: true }));

/** Commands that read or print text. */
export const textSpecs: Record<string, Judge> = {
  ...Object.fromEntries(plainReaders.map((name) => [name, (METADATA.has(name) ? metadataReader : reader)(readerValues[name] ?? [])])),
  ...Object.fromEntries(Object.entries(readerValues).map(([name, values]) => [name, (METADATA.has(name) ? metadataReader : reader)(values)])),
  ...Object.fromEntries(inertCommands.map((name) => [name, inert()])),
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
  rev: reader(),
  cd: (args) => {
    const operands = parseArgs(args).operands;
    const target = operands[0];
    if (!target) return { risk: 'read', reason: '`cd` changes directory', cd: 'home' };
    if (target.value === '-') return { risk: 'read', reason: '`cd -` changes directory', cd: 'unknown' };
    return { risk: 'read', reason: '`cd` changes directory', cd: target, reads: [target] };
  },
  pushd: (args) => {
    const target = parseArgs(args).operands[0];
    return { risk: 'read', reason: '`pushd` changes directory', cd: target && !/^[+-]\d*$/.test(target.value ?? '') ? target : 'unknown', reads: target ? [target] : [] };
  },
  popd: fixed('read', '`popd` changes directory', { cd: 'unknown' }),
  dirs: inert(),
  // Reached only as `command -v/-V name` (a lookup); other uses are unwrapped to the command they run.
  command: inert(),
};
