import { hasOption, optionValues, parseArgs, unknownOptions, type ArgSpec } from '../argv.js';
import { checked, fixed, writer, type Judge } from '../spec.js';
import { literal } from '../words.js';

const rm: Judge = (args, _context, name) => ({
  risk: 'write',
  reason: `\`${name}\` deletes files`,
  writes: parseArgs(args, { values: ['--interactive'] }).operands,
});

/** mv and cp: `-t DIR` names the target; otherwise the last operand is. */
function copyLike(kind: 'mv' | 'cp' | 'install' | 'ln'): Judge {
  const values = ['-t', '--target-directory', '-S', '--suffix', '-m', '--mode', '-o', '--owner', '-g', '--group', '--backup', '--reflink', '--sparse', '--preserve', '--no-preserve', '--sort'];
  return (args, _context, name) => {
    const parsed = parseArgs(args, { values });
    const targetDir = optionValues(parsed, '-t', '--target-directory');
    const operands = [...parsed.operands];
    const target = targetDir.length ? targetDir : operands.length > 1 ? [operands.pop()!] : [];
    const recursive = hasOption(parsed, '-r', '-R', '--recursive', '-a', '--archive');
    if (kind === 'mv') return { risk: 'write', reason: '`mv` moves files', writes: [...operands, ...target] };
    if (kind === 'ln') return { risk: 'write', reason: '`ln` creates links', writes: target.length ? target : [literal('.')] };
    return {
      risk: 'write',
      reason: `\`${name}\` copies files`,
      writes: target,
      ...(recursive ? { recursiveReads: operands } : { reads: operands }),
    };
  };
}

/** chmod/chown/chgrp: the first operand is the mode or owner unless `--reference` gives it. */
function modeChange(what: string): Judge {
  return (args, _context, name) => {
    const parsed = parseArgs(args, { values: ['--reference', '--from'] });
    const operands = [...parsed.operands];
    if (!hasOption(parsed, '--reference')) operands.shift();
    return { risk: 'write', reason: `\`${name}\` changes file ${what}`, writes: operands, reads: optionValues(parsed, '--reference') };
  };
}

const dd: Judge = (args) => {
  const reads = [];
  const writes = [];
  for (const arg of args) {
    const text = arg.value ?? '';
    if (text.startsWith('if=')) reads.push({ ...arg, value: text.slice(3), template: arg.template.slice(3) });
    if (text.startsWith('of=')) writes.push({ ...arg, value: text.slice(3), template: arg.template.slice(3) });
  }
  if (!writes.length) return { risk: 'read', reason: '`dd` without of= only prints', reads, concerns: args.some((a) => a.value === null) ? ['a `dd` operand is only known at run time'] : [] };
  return { risk: 'write', reason: '`dd` writes raw data', reads, writes };
};

const TAR_LIST: ArgSpec = {
  flags: ['-t', '--list', '-v', '--verbose', '-z', '-j', '-J', '-a', '--gzip', '--gunzip', '--bzip2', '--xz', '--lzma', '--zstd', '--auto-compress', '--wildcards', '--no-wildcards', '--anchored', '--no-anchored', '--ignore-case', '--numeric-owner', '--full-time', '--utc', '-R', '--block-number', '--force-local', '-i', '--ignore-zeros', '-p', '-O', '-w', '-k'],
  values: ['-f', '--file', '--exclude', '-C', '--directory', '-b', '--blocking-factor', '-H', '--format', '--strip-components', '--occurrence', '--quoting-style'],
};

const tar: Judge = (args) => {
  // The first word may be a bundle of mode letters without a dash (`tar czf out.tgz dir`).
  const first = args[0]?.value ?? '';
  const bundle = first && !first.startsWith('-') ? first : '';
  const rest = bundle ? args.slice(1) : args;
  const parsed = parseArgs(rest, { values: ['-f', '--file', '-C', '--directory', '-T', '--files-from', '-X', '--exclude-from', '--exclude', '-I', '--use-compress-program', '--to-command', '--transform', '-b', '-H', '--format'] });
  const has = (letter: string, long: string) => bundle.includes(letter) || hasOption(parsed, '-' + letter, long);
  let operands = [...parsed.operands];
  let archive = optionValues(parsed, '-f', '--file');
  if (bundle.includes('f') && !archive.length && operands.length) archive = [operands.shift()!];
  if (hasOption(parsed, '-I', '--use-compress-program', '--to-command', '--checkpoint-action', '--info-script', '--new-volume-script'))
    return { risk: 'exec', reason: '`tar` is told to run a program' };
  const dir = optionValues(parsed, '-C', '--directory');
  if (has('t', '--list')) {
    // Listing runs nothing unless told to: every option must be known, and a `host:file` archive runs rsh.
    const listing = parseArgs(rest, TAR_LIST);
    const concerns = [...unknownOptions(listing, 'tar'), ...(/[^tvfzjJaOpw]/.test(bundle) ? [`the \`tar\` mode letters ${bundle} are not all known to assistant`] : [])];
    if (archive.some((a) => a.value === null || (/^[^/]*:/.test(a.value) && !hasOption(listing, '--force-local')))) concerns.push('the `tar` archive is on another host (tar runs rsh to reach it)');
    return { risk: 'read', reason: '`tar -t` only lists', reads: archive, concerns };
  }
  if (has('x', '--extract') || has('x', '--get'))
    return { risk: 'write', reason: '`tar -x` extracts files', reads: archive, writes: dir.length ? dir : [literal('.')], writesUnknown: true };
  if (has('c', '--create') || has('r', '--append') || has('u', '--update')) {
    if (dir.length) operands = [];
    return { risk: 'write', reason: '`tar -c` writes an archive', writes: archive, recursiveReads: dir.length ? dir : operands };
  }
  return { risk: 'write', reason: '`tar` may write files', writesUnknown: true, reads: archive };
};

const zip: Judge = (args) => {
  const parsed = parseArgs(args, { values: ['-x', '-i', '-b', '-n', '-t', '-tt', '-P', '--password'] });
  const [archive, ...files] = parsed.operands;
  if (hasOption(parsed, '-T', '--test', '-TT', '--unzip-command')) return { risk: 'exec', reason: '`zip -T` runs a program' };
  return { risk: 'write', reason: '`zip` writes an archive', writes: archive ? [archive] : [], recursiveReads: files };
};

const unzip: Judge = (args) => {
  const parsed = parseArgs(args, { values: ['-d', '-x', '-P'] });
  const [archive] = parsed.operands;
  if (hasOption(parsed, '-l', '-v', '-t', '-Z', '-z')) return { risk: 'read', reason: '`unzip -l` only lists', reads: archive ? [archive] : [] };
  if (hasOption(parsed, '-p', '-c')) return { risk: 'read', reason: '`unzip -p` only prints', reads: archive ? [archive] : [] };
  const dir = optionValues(parsed, '-d');
  return { risk: 'write', reason: '`unzip` extracts files', reads: archive ? [archive] : [], writes: dir.length ? dir : [literal('.')], writesUnknown: true };
};

const COMPRESSOR: ArgSpec = {
  flags: ['-c', '-d', '-f', '-k', '-l', '-n', '-N', '-q', '-r', '-t', '-v', '-z', '-1', '-2', '-3', '-4', '-5', '-6', '-7', '-8', '-9', '--best', '--fast', '--stdout', '--to-stdout', '--decompress', '--uncompress', '--compress', '--force', '--keep', '--list', '--no-name', '--name', '--quiet', '--test', '--verbose', '--recursive', '-s', '--small'],
  values: ['-S', '--suffix', '-T', '--threads', '-b'],
};

/** gzip and friends compress in place unless told to print. */
function compressor(): Judge {
  return (args, _context, name) => {
    const parsed = parseArgs(args, { values: ['-S', '--suffix', '-b', '-T', '--threads', '-o', '--output'] });
    if (hasOption(parsed, '-c', '--stdout', '--to-stdout', '-l', '--list', '-t', '--test'))
      return checked({ risk: 'read', reason: `\`${name} -c\` only prints`, reads: parsed.operands }, parseArgs(args, COMPRESSOR), COMPRESSOR, name);
    return { risk: 'write', reason: `\`${name}\` replaces files`, writes: [...parsed.operands, ...optionValues(parsed, '-o', '--output')] };
  };
}

const patch: Judge = (args) => {
  const parsed = parseArgs(args, { values: ['-p', '-i', '--input', '-d', '--directory', '-o', '--output', '-r', '--reject-file', '-B', '-F', '-D', '-z', '-V'] });
  if (hasOption(parsed, '--dry-run')) return { risk: 'read', reason: '`patch --dry-run` only checks', reads: optionValues(parsed, '-i', '--input') };
  return { risk: 'write', reason: '`patch` edits the files named in the patch', reads: optionValues(parsed, '-i', '--input'), writes: parsed.operands, writesUnknown: true };
};

const truncate: Judge = (args) => ({ risk: 'write', reason: '`truncate` changes file sizes', writes: parseArgs(args, { values: ['-s', '--size', '-r', '--reference'] }).operands });
const touch: Judge = (args) => ({ risk: 'write', reason: '`touch` creates or changes files', writes: parseArgs(args, { values: ['-d', '--date', '-t', '-r', '--reference'] }).operands });
const mkdir: Judge = (args) => ({ risk: 'write', reason: '`mkdir` creates directories', writes: parseArgs(args, { values: ['-m', '--mode', '--context'] }).operands });

/** Commands that create, change or delete files. */
export const fileSpecs: Record<string, Judge> = {
  rm,
  rmdir: writer('`rmdir` deletes directories'),
  unlink: writer('`unlink` deletes files'),
  shred: writer('`shred` destroys files', ['-n', '-s', '--iterations', '--size', '--random-source']),
  srm: writer('`srm` destroys files'),
  trash: writer('`trash` deletes files'),
  'trash-put': writer('`trash-put` deletes files'),
  truncate,
  touch,
  mkdir,
  mkfifo: writer('`mkfifo` creates files', ['-m', '--mode']),
  mknod: writer('`mknod` creates device files'),
  mktemp: fixed('write', '`mktemp` creates a temporary file'),
  mv: copyLike('mv'),
  cp: copyLike('cp'),
  install: copyLike('install'),
  ln: copyLike('ln'),
  rename: writer('`rename` renames files'),
  chmod: modeChange('permissions'),
  chown: modeChange('owners'),
  chgrp: modeChange('groups'),
  chattr: modeChange('attributes'),
  setfacl: writer('`setfacl` changes file permissions', ['-m', '-x', '-M', '-X', '--modify', '--remove', '--set', '--set-file']),
  dd,
  tar,
  gtar: tar,
  bsdtar: tar,
  zip,
  unzip,
  gzip: compressor(),
  gunzip: compressor(),
  bzip2: compressor(),
  bunzip2: compressor(),
  xz: compressor(),
  unxz: compressor(),
  zstd: compressor(),
  unzstd: compressor(),
  lz4: compressor(),
  '7z': fixed('write', '`7z` writes archives or extracts files', { writesUnknown: true }),
  patch,
  split: fixed('write', '`split` writes files', { writesUnknown: true }),
  csplit: fixed('write', '`csplit` writes files', { writesUnknown: true }),
  sync: fixed('read', '`sync` flushes file system buffers', { inert: true }),
};
