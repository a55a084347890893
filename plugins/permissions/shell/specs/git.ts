import { hasOption, optionValues, parseArgs, type ParsedArgs } from '../argv.js';
import type { Judge, Verdict } from '../spec.js';
import type { Arg } from '../types.js';

const GLOBAL_VALUES = ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--attr-source'];

/** Options of the read commands that take a value, so values are not taken for paths. */
const READ_VALUES = [
  '-n', '--max-count', '--skip', '--since', '--after', '--until', '--before', '--author', '--committer', '--grep', '-S', '-G',
  '--format', '--date', '-L', '--diff-filter', '--encoding', '--decorate-refs', '--decorate-refs-exclude', '-O', '--src-prefix',
  '--dst-prefix', '--line-prefix', '--inter-hunk-context', '--max-depth', '--sort', '--points-at', '--exclude', '--glob',
  '--ignore-rev', '--ignore-revs-file', '--contents', '--threads', '--max-parents', '--min-parents', '--rotate-to', '--skip-to',
  '--output-indicator-new', '--output-indicator-old', '--output-indicator-context', '--word-diff-regex', '--stat-width',
  '--stat-count', '--stat-name-width', '--stat-graph-width', '--ws-error-highlight',
];

/** Operands of read commands: paths, and the path part of `rev:path`. */
function pathsOf(operands: Arg[]): Arg[] {
  const out: Arg[] = [];
  for (const arg of operands) {
    out.push(arg);
    const text = arg.value;
    const colon = text?.indexOf(':') ?? -1;
    if (text && colon >= 0 && colon < text.length - 1)
      out.push({ value: text.slice(colon + 1), template: arg.template.slice(arg.template.indexOf(':') + 1), glob: arg.glob });
  }
  return out;
}

function readVerdict(name: string, parsed: ParsedArgs, operands = parsed.operands): Verdict {
  if (hasOption(parsed, '--output', '-o')) return { risk: 'write', reason: `\`${name} --output\` writes a file`, writes: optionValues(parsed, '--output', '-o') };
  if (hasOption(parsed, '--ext-diff', '--textconv')) return { risk: 'exec', reason: `\`${name} --ext-diff\` runs configured programs` };
  return { risk: 'read', reason: `\`${name}\` only reads the repository`, reads: pathsOf(operands) };
}

function readCommand(extraValues: string[] = []): Judge {
  return (args, _context, name) => readVerdict(name, parseArgs(args, { values: [...READ_VALUES, ...extraValues] }));
}

/** A command that lists with no operands (or with list flags) and changes things otherwise. */
function listOrChange(listFlags: string[], changeFlags: string[]): Judge {
  return (args, _context, name) => {
    const parsed = parseArgs(args, { values: READ_VALUES });
    const listing = hasOption(parsed, ...listFlags);
    if (hasOption(parsed, ...changeFlags) || (parsed.operands.length && !listing)) return { risk: 'write', reason: `\`${name}\` changes the repository` };
    return { risk: 'read', reason: `\`${name}\` only lists` };
  };
}

/** Picks by a second word (`git stash list`); read ones listed, others change the repository. */
function bySecondWord(reads: string[], defaultRead: boolean, network: string[] = []): Judge {
  return (args, _context, name) => {
    const sub = parseArgs(args, { stopAtOperand: true }).operands[0]?.value;
    if (sub && network.includes(sub)) return { risk: 'network', reason: `\`${name} ${sub}\` contacts a remote` };
    if (sub === undefined ? defaultRead : reads.includes(sub ?? '')) return { risk: 'read', reason: `\`${name}${sub ? ' ' + sub : ''}\` only reads` };
    return { risk: 'write', reason: `\`${name}${sub ? ' ' + sub : ''}\` changes the repository` };
  };
}

const network = (what: string): Judge => (_args, _context, name) => ({ risk: 'network', reason: `\`${name}\` ${what}` });

const SUBCOMMANDS: Record<string, Judge> = {
  status: readCommand(['-u', '--untracked-files', '--ignored', '--ignore-submodules', '--porcelain']),
  log: readCommand(),
  show: readCommand(),
  diff: readCommand(),
  blame: readCommand(),
  annotate: readCommand(),
  shortlog: readCommand(),
  describe: readCommand(['--match', '--dirty', '--broken', '--candidates']),
  'rev-parse': readCommand(['--short', '--prefix', '--default', '--since', '--until']),
  'rev-list': readCommand(),
  'ls-files': readCommand(['-x', '--exclude', '-X', '--exclude-from', '--exclude-per-directory', '--with-tree', '--format']),
  'ls-tree': readCommand(),
  'cat-file': readCommand(['--filters', '--path']),
  grep: (args, _context, name) => {
    const parsed = parseArgs(args, { values: [...READ_VALUES, '--max-depth', '-e', '-f', '--threads', '-m', '--max-count', '-O', '--open-files-in-pager'] });
    if (hasOption(parsed, '-O', '--open-files-in-pager')) return { risk: 'exec', reason: '`git grep -O` runs a pager' };
    const operands = hasOption(parsed, '-e', '-f') ? parsed.operands : parsed.operands.slice(1);
    return readVerdict(name, parsed, operands);
  },
  'show-ref': readCommand(),
  'for-each-ref': readCommand(),
  'merge-base': readCommand(),
  'name-rev': readCommand(),
  'check-ignore': readCommand(),
  'check-attr': readCommand(),
  'count-objects': readCommand(),
  whatchanged: readCommand(),
  'diff-tree': readCommand(),
  'diff-index': readCommand(),
  'diff-files': readCommand(),
  cherry: readCommand(),
  'range-diff': readCommand(),
  'verify-commit': readCommand(),
  'verify-tag': readCommand(),
  'show-branch': readCommand(),
  fsck: readCommand(),
  var: readCommand(),
  help: readCommand(),
  version: readCommand(),
  reflog: bySecondWord(['show'], true),
  stash: bySecondWord(['list', 'show'], false),
  worktree: bySecondWord(['list'], false),
  submodule: bySecondWord(['status', 'summary'], true, ['update', 'sync', 'init']),
  notes: bySecondWord(['list', 'show'], true),
  remote: (args, context, name) => {
    const parsed = parseArgs(args, { stopAtOperand: true });
    const sub = parsed.operands[0]?.value;
    if (sub === undefined || sub === 'get-url') return { risk: 'read', reason: `\`${name}\` only lists remotes` };
    if (sub === 'show' || sub === 'update' || sub === 'prune') return { risk: 'network', reason: `\`${name} ${sub}\` contacts a remote` };
    void context;
    return { risk: 'write', reason: `\`${name} ${sub}\` changes the remotes` };
  },
  branch: listOrChange(
    ['-l', '--list', '-a', '--all', '-r', '--remotes', '-v', '-vv', '--verbose', '--show-current', '--contains', '--merged', '--no-merged', '--points-at'],
    ['-d', '-D', '--delete', '-m', '-M', '--move', '-c', '-C', '--copy', '-u', '--set-upstream-to', '--unset-upstream', '--edit-description', '-f', '--force', '-t', '--track'],
  ),
  tag: listOrChange(['-l', '--list', '-n', '--contains', '--no-contains', '--points-at', '--merged', '--no-merged', '-v', '--verify'], ['-d', '--delete', '-a', '--annotate', '-s', '--sign', '-f', '--force', '-m', '-F']),
  config: (args, _context, name) => {
    const parsed = parseArgs(args, { values: ['--file', '-f', '--blob', '--default', '--type', '--comment'] });
    const sub = parsed.operands[0]?.value;
    const getting = hasOption(parsed, '--get', '--get-all', '--get-regexp', '--get-urlmatch', '--list', '-l', '--show-origin', '--show-scope') || sub === 'get' || sub === 'list' || (parsed.operands.length === 1 && !hasOption(parsed, '--unset', '--unset-all', '--add', '--replace-all', '--edit', '-e', '--remove-section', '--rename-section'));
    if (getting) return { risk: 'read', reason: `\`${name}\` only reads settings`, reads: optionValues(parsed, '--file', '-f') };
    return { risk: 'write', reason: `\`${name}\` changes git settings` };
  },
  archive: (args, _context, name) => {
    const parsed = parseArgs(args, { values: ['-o', '--output', '--format', '--prefix', '--remote', '--exec'] });
    if (hasOption(parsed, '--remote', '--exec')) return { risk: 'network', reason: `\`${name} --remote\` contacts a remote` };
    const outputs = optionValues(parsed, '-o', '--output');
    return outputs.length ? { risk: 'write', reason: `\`${name} -o\` writes a file`, writes: outputs } : { risk: 'read', reason: `\`${name}\` only prints` };
  },
  clean: (args, _context, name) => {
    const parsed = parseArgs(args, { values: ['-e', '--exclude'] });
    if (hasOption(parsed, '-n', '--dry-run')) return { risk: 'read', reason: `\`${name} -n\` only lists` };
    return { risk: 'write', reason: `\`${name}\` deletes untracked files`, writesUnknown: true };
  },
  apply: (args, _context, name) => {
    const parsed = parseArgs(args, { values: ['-p', '-C', '--exclude', '--include', '--directory', '--whitespace'] });
    if (hasOption(parsed, '--check', '--stat', '--numstat', '--summary') && !hasOption(parsed, '--apply', '--index', '--cached'))
      return { risk: 'read', reason: `\`${name} --check\` only checks`, reads: parsed.operands };
    return { risk: 'write', reason: `\`${name}\` changes files`, reads: parsed.operands, writesUnknown: true };
  },
  fetch: network('downloads from a remote'),
  pull: network('downloads from a remote and changes files'),
  push: network('uploads to a remote'),
  clone: network('downloads a repository'),
  'ls-remote': network('contacts a remote'),
  'request-pull': network('contacts a remote'),
  'send-email': network('sends email'),
  'svn': network('contacts a remote'),
};

/** `git`: global options (`-C dir` moves where paths are relative to), then the subcommand. */
export const git: Judge = (args, context, name) => {
  const parsed = parseArgs(args, { values: GLOBAL_VALUES, stopAtOperand: true });
  const concerns: string[] = [];
  if (hasOption(parsed, '-c', '--config-env', '--exec-path', '--git-dir', '--work-tree', '--super-prefix'))
    concerns.push('`git -c` / `--git-dir` / `--exec-path` change what git runs or where');
  const sub = parsed.operands[0];
  const cwd = optionValues(parsed, '-C').at(-1);
  if (!sub) {
    if (hasOption(parsed, '--version', '-v', '--help', '-h')) return { risk: 'read', reason: '`git --version` only prints', inert: true };
    return { risk: 'unknown', reason: 'the git subcommand is missing or only known at run time', concerns };
  }
  const judge = sub.value !== null ? SUBCOMMANDS[sub.value] : undefined;
  const verdict: Verdict = judge
    ? judge(args.slice(args.indexOf(sub) + 1), context, `${name} ${sub.value}`)
    : { risk: 'write', reason: sub.value === null ? 'the git subcommand is only known at run time' : `\`${name} ${sub.value}\` changes the repository`, writesUnknown: true };
  return { ...verdict, ...(cwd ? { cwd } : {}), concerns: [...concerns, ...(verdict.concerns ?? [])] };
};
