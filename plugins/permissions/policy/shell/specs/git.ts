import { hasOption, optionValues, parseArgs, unknownOptions, type ArgSpec, type ParsedArgs, type ValueKind } from '../argv.js';
import { checked, type Judge, type Verdict } from '../spec.js';
import type { Arg } from '../types.js';

/** git's own options, before the subcommand. */
const GLOBAL: ArgSpec = {
  flags: [
    '-P', '-p', '--no-pager', '--paginate', '--bare', '--no-replace-objects', '--literal-pathspecs', '--glob-pathspecs', '--noglob-pathspecs',
    '--icase-pathspecs', '--no-optional-locks', '--no-lazy-fetch', '--no-advice', '--version', '--help', '-h', '-v', '--html-path', '--man-path', '--info-path',
  ],
  optional: ['--exec-path'],
  values: ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--attr-source', '--list-cmds', '--super-prefix'],
  stopAtOperand: true,
};

/** Options of the log/show/diff family that only change what is printed. `--output`, `--ext-diff`, `--textconv` are not among them. */
const LOG_FLAGS = [
  '--oneline', '--graph', '--all', '--no-decorate', '--shortstat', '--numstat', '--name-only', '--name-status', '--patch', '-p', '-u', '--no-patch', '-s',
  '--raw', '--abbrev-commit', '--no-abbrev-commit', '--relative-date', '--reverse', '--first-parent', '--merges', '--no-merges', '--follow', '--no-follow',
  '--full-history', '--simplify-by-decoration', '--simplify-merges', '--topo-order', '--date-order', '--author-date-order', '--left-right', '--left-only',
  '--right-only', '--cherry-pick', '--cherry-mark', '--cherry', '--boundary', '--no-walk', '--do-walk', '--walk-reflogs', '-g', '--branches', '--tags',
  '--remotes', '--source', '--full-diff', '--no-color', '--ignore-space-change', '-b', '-w', '--ignore-all-space', '--ignore-blank-lines',
  '--ignore-space-at-eol', '--ignore-cr-at-eol', '--summary', '--cc', '-c', '-m', '--combined-all-paths', '--minimal', '--patience', '--histogram',
  '--no-renames', '--check', '--exit-code', '--quiet', '-q', '--no-prefix', '--default-prefix', '--full-index', '--binary', '--text', '-a',
  '--function-context', '-W', '--cached', '--staged', '--merge-base', '-z', '--no-ext-diff', '--no-textconv', '--all-match', '--invert-grep', '-i',
  '--regexp-ignore-case', '-E', '--extended-regexp', '-F', '--fixed-strings', '-P', '--perl-regexp', '--basic-regexp', '--show-signature', '--no-notes',
  '--use-mailmap', '--mailmap', '--no-mailmap', '--no-use-mailmap', '--log-size', '--parents', '--children', '--ancestry-path', '--show-linear-break',
  '--count', '--indent-heuristic', '--no-indent-heuristic', '--compact-summary', '--ita-invisible-in-index', '--remerge-diff', '--dd', '--single-worktree',
  '--exclude-first-parent-only', '--show-pulls', '--sparse', '--dense', '--no-expand-tabs', '--clear-decorations', '--pickaxe-all', '--pickaxe-regex',
  '--irreversible-delete', '-D', '-R', '--no-relative', '-M', '-C', '-B', '--find-copies-harder', '--objects', '--objects-edge', '--no-stat',
  '--bisect', '--not', '--stdin', '--no-min-parents', '--no-max-parents', '-1', '-r', '-t', '--root', '--always', '--no-commit-id', '-v', '--no-color-moved',
  '--reflog', '--alternate-refs', '--timestamp', '--header', '--left', '--right', '--stat', '--break-rewrites', '--find-renames', '--find-copies',
  '--no-standard-notes', '--standard-notes', '--show-notes-by-default', '--expand-tabs', '-h', '--help', '-1', '--ignore-missing', '--first-parent',
  '--numbered', '-n', '--summary', '-e', '--email', '--committer', '--in-commit-order', '--exclude-hidden', '--date-order', '--porcelain',
];
const LOG_OPTIONAL = ['--decorate', '--stat', '--dirstat', '--dirstat-by-file', '--color', '--word-diff', '--color-words', '--find-renames', '--find-copies',
  '--ignore-submodules', '--pretty', '--abbrev', '--notes', '--show-notes', '--relative', '--color-moved', '--submodule', '--diff-merges', '--break-rewrites',
  '--expand-tabs', '--group', '--cumulative', '--unified', '--no-walk', '--show-notes', '--line-prefix'];
const LOG_VALUES: Record<string, ValueKind> = Object.fromEntries([
  '-n', '--max-count', '--skip', '--since', '--after', '--until', '--before', '--since-as-filter', '--author', '--committer', '--grep', '--grep-reflog', '-S',
  '-G', '--format', '--date', '-L', '--diff-filter', '--encoding', '--decorate-refs', '--decorate-refs-exclude', '--src-prefix', '--dst-prefix',
  '--inter-hunk-context', '--max-parents', '--min-parents', '--exclude', '--glob', '--rotate-to', '--skip-to', '--output-indicator-new',
  '--output-indicator-old', '--output-indicator-context', '--word-diff-regex', '--stat-width', '--stat-count', '--stat-name-width', '--stat-graph-width',
  '--ws-error-highlight', '--diff-algorithm', '--color-moved-ws', '--anchored', '-U', '-l', '--abbrev', '--creation-factor',
].map((name) => [name, 'text' as ValueKind]).concat([['-O', 'read']]));
const LOG: ArgSpec = { flags: LOG_FLAGS, optional: LOG_OPTIONAL, values: LOG_VALUES, numeric: true };

/** A spec from extra flags and values, on top of nothing or the log family. */
function spec(flags: string[], values: Record<string, ValueKind> | string[] = [], optional: string[] = [], base?: ArgSpec): ArgSpec {
  const table = Array.isArray(values) ? Object.fromEntries(values.map((v) => [v, 'text' as ValueKind])) : values;
  return {
    flags: [...(base?.flags ?? []), ...flags, '-h', '--help'],
    values: { ...((base?.values as Record<string, ValueKind>) ?? {}), ...table },
    optional: [...(base?.optional ?? []), ...optional],
    numeric: base?.numeric ?? false,
  };
}

const STATUS = spec(['-s', '--short', '-b', '--branch', '--long', '-v', '--verbose', '--show-stash', '--ahead-behind', '--no-ahead-behind', '-z', '--null', '--no-column', '--renames', '--no-renames', ], ['-u'], ['--porcelain', '--untracked-files', '--ignored', '--ignore-submodules', '--find-renames', '--column']);
const BLAME = spec(['-b', '--root', '--show-stats', '-f', '--show-name', '-n', '--show-number', '-s', '-e', '--show-email', '-w', '-p', '--porcelain', '--line-porcelain', '--incremental', '-l', '-t', '-c', '--score-debug', '-M', '-C', '--progress', '--no-progress', '--reverse', '--first-parent', '--minimal', '--color-lines', '--color-by-age'], { '-L': 'text', '--date': 'text', '--ignore-rev': 'text', '--since': 'text', '--encoding': 'text', '--abbrev': 'text', '-S': 'read', '--contents': 'read', '--ignore-revs-file': 'read' });

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

function readVerdict(name: string, parsed: ParsedArgs, argSpec: ArgSpec, operands = parsed.operands): Verdict {
  return checked({ risk: 'read', reason: `\`${name}\` only reads the repository`, reads: pathsOf(operands) }, parsed, argSpec, name);
}

/** A read command that knows its options (`git log`, `git blame`). */
function readCommand(argSpec: ArgSpec = LOG): Judge {
  return (args, _context, name) => readVerdict(name, parseArgs(args, argSpec), argSpec);
}

/** Flags with which `git log` (and the diff-* plumbing) prints file contents, not just history. */
const PATCH_FLAGS = ['-p', '-u', '--patch', '-L', '--cc', '-c', '-m', '--remerge-diff', '--dd', '--word-diff', '--color-words', '-W', '--function-context', '-S', '-G', '--text', '-a'];

/**
 * A read command that prints content by commit or object id (`git show 3b18e51`, `git cat-file -p`,
 * `git log -p`): the path checks cannot see which files that is, so the policy checks what the
 * repository tracks. `always`: it prints content with any options; otherwise only with a patch flag.
 */
function contentCommand(argSpec: ArgSpec = LOG, always = true): Judge {
  return (args, _context, name) => {
    const parsed = parseArgs(args, argSpec);
    const verdict = readVerdict(name, parsed, argSpec);
    return always || hasOption(parsed, ...PATCH_FLAGS) ? { ...verdict, readsTracked: true } : verdict;
  };
}

/** A command that lists with no operands (or with list flags) and changes things otherwise. */
function listOrChange(listFlags: string[], changeFlags: string[], listSpec: ArgSpec): Judge {
  return (args, _context, name) => {
    const parsed = parseArgs(args, { ...listSpec, flags: [...listSpec.flags!, ...changeFlags] });
    const listing = hasOption(parsed, ...listFlags);
    if (hasOption(parsed, ...changeFlags) || (parsed.operands.length && !listing)) return { risk: 'write', reason: `\`${name}\` changes the repository` };
    return checked({ risk: 'read', reason: `\`${name}\` only lists` }, parsed, listSpec, name);
  };
}

/** Picks by a second word (`git stash list`); read ones listed, others change the repository. */
function bySecondWord(reads: string[], defaultRead: boolean, network: string[] = [], readSpec: ArgSpec = LOG): Judge {
  return (args, _context, name) => {
    const first = parseArgs(args, { stopAtOperand: true }).operands[0];
    const sub = first?.value;
    if (sub && network.includes(sub)) return { risk: 'network', reason: `\`${name} ${sub}\` contacts a remote` };
    if (sub === undefined ? defaultRead : reads.includes(sub ?? '')) {
      const rest = first ? args.filter((a) => a !== first) : args;
      const parsed = parseArgs(rest, readSpec);
      return checked({ risk: 'read', reason: `\`${name}${sub ? ' ' + sub : ''}\` only reads` }, parsed, readSpec, name);
    }
    return { risk: 'write', reason: `\`${name}${sub ? ' ' + sub : ''}\` changes the repository` };
  };
}

const network = (what: string): Judge => (_args, _context, name) => ({ risk: 'network', reason: `\`${name}\` ${what}` });

/** Settings whose values are not secrets: `git config user.name` stays a read. Remote URLs, credentials and headers may hold tokens. */
const PLAIN_SETTING = /^(user\.(name|email|signingkey)|core\.[a-z]+|init\.defaultbranch|pull\.(rebase|ff)|push\.(default|autosetupremote)|merge\.(ff|conflictstyle)|rebase\.[a-z]+|branch\.[^.]+\.(remote|merge|rebase)|commit\.gpgsign|tag\.gpgsign|color\.[a-z.]+|diff\.(algorithm|renames)|fetch\.prune)$/i;

const SUBCOMMANDS: Record<string, Judge> = {
  status: readCommand(STATUS),
  log: contentCommand(LOG, false),
  show: contentCommand(),
  diff: contentCommand(),
  blame: readCommand(BLAME),
  annotate: readCommand(BLAME),
  shortlog: readCommand(spec(['-s', '--summary', '-n', '--numbered', '-e', '--email', '-c', '--committer'], [], ['--group', '-w', '--format'], LOG)),
  describe: readCommand(spec(['--tags', '--all', '--long', '--always', '--first-parent', '--exact-match', '--contains', '--debug'], ['--match', '--exclude', '--candidates'], ['--dirty', '--broken', '--abbrev'])),
  'rev-parse': readCommand(spec(
    ['--show-toplevel', '--show-prefix', '--show-cdup', '--git-dir', '--git-common-dir', '--absolute-git-dir', '--is-inside-work-tree', '--is-inside-git-dir', '--is-bare-repository', '--is-shallow-repository', '--verify', '-q', '--quiet', '--symbolic', '--symbolic-full-name', '--all', '--local-env-vars', '--show-superproject-working-tree', '--shared-index-path', '--revs-only', '--no-revs', '--flags', '--no-flags', '--sq', '--sq-quote', '--not', '--show-ref-format', '--keep-dashdash', '--stop-at-non-option'],
    ['--default', '--prefix', '--since', '--after', '--until', '--before', '--git-path', '--path-format', '--exclude', '--resolve-git-dir'],
    ['--abbrev-ref', '--short', '--branches', '--tags', '--remotes', '--glob', '--show-object-format'],
  )),
  'rev-list': contentCommand(LOG, false),
  'ls-files': readCommand(spec(['-c', '-d', '-m', '-o', '-i', '-s', '-u', '-k', '-z', '-t', '-v', '-f', '--cached', '--deleted', '--modified', '--others', '--ignored', '--stage', '--unmerged', '--killed', '--directory', '--no-empty-directory', '--eol', '--full-name', '--recurse-submodules', '--error-unmatch', '--exclude-standard', '--sparse', '--debug', '--deduplicate', '--resolve-undo'], { '-x': 'text', '--exclude': 'text', '-X': 'read', '--exclude-from': 'read', '--exclude-per-directory': 'text', '--with-tree': 'text', '--format': 'text' }, ['--abbrev'])),
  'ls-tree': readCommand(spec(['-d', '-r', '-t', '-l', '-z', '--name-only', '--name-status', '--object-only', '--full-name', '--full-tree', '--long'], ['--format'], ['--abbrev'])),
  'cat-file': contentCommand(spec(['-t', '-s', '-e', '-p', '-Z', '--batch-all-objects', '--buffer', '--unordered', '--follow-symlinks', '--allow-unknown-type', '--use-mailmap', '--no-use-mailmap'], ['--path'], ['--batch', '--batch-check', '--batch-command'])),
  grep: (args, _context, name) => {
    const grepSpec = spec(
      ['-i', '-I', '-w', '-v', '-n', '-l', '-L', '-c', '-h', '-H', '-o', '-q', '-z', '-r', '--cached', '--untracked', '--no-index', '--recurse-submodules', '-E', '-F', '-G', '-P', '--full-name', '--heading', '--break', '-W', '--function-context', '-p', '--show-function', '--column', '--all-match', '--and', '--or', '--not', '--no-exclude-standard', '--exclude-standard', '--ignore-case', '--word-regexp', '--invert-match', '--line-number', '--files-with-matches', '--name-only', '--files-without-match', '--count', '--null', '--only-matching', '--quiet', '-a', '--text', '--no-color', '--extended-regexp', '--fixed-strings', '--basic-regexp', '--perl-regexp', '--no-textconv', '--recursive', '--no-recursive'],
      { '-e': 'text', '-f': 'read', '-A': 'text', '-B': 'text', '-C': 'text', '-m': 'text', '--max-count': 'text', '--max-depth': 'text', '--threads': 'text', '--context': 'text', '--after-context': 'text', '--before-context': 'text' },
      ['--color'],
    );
    const parsed = parseArgs(args, { ...grepSpec, numeric: true });
    const operands = hasOption(parsed, '-e', '-f') ? parsed.operands : parsed.operands.slice(1);
    // Tracked files and, with --no-index/--untracked, the working tree: both may hold a secret no operand names.
    const verdict = readVerdict(name, parsed, grepSpec, operands);
    if (hasOption(parsed, '--no-index', '--untracked')) return { ...verdict, recursiveReads: operands.length ? operands : [{ value: '.', template: '.', glob: false }] };
    return { ...verdict, readsTracked: true };
  },
  'show-ref': readCommand(spec(['--head', '--heads', '--tags', '--branches', '-d', '--dereference', '-s', '--verify', '--exists', '-q', '--quiet'], [], ['--hash', '--abbrev', '--exclude-existing'])),
  'for-each-ref': readCommand(spec(['--shell', '--perl', '--python', '--tcl', '--ignore-case', '--omit-empty', '--stdin', '--include-root-refs'], ['--format', '--sort', '--count', '--points-at', '--merged', '--no-merged', '--contains', '--no-contains', '--exclude'])),
  'merge-base': readCommand(spec(['--all', '--octopus', '--independent', '--is-ancestor', '--fork-point', '-a'])),
  'name-rev': readCommand(spec(['--tags', '--all', '--name-only', '--no-undefined', '--always', '--annotate-stdin', '--stdin'], ['--refs', '--exclude'])),
  'check-ignore': readCommand(spec(['-q', '-v', '-n', '--quiet', '--verbose', '--non-matching', '--stdin', '-z', '--no-index'])),
  'check-attr': readCommand(spec(['-a', '--all', '--cached', '--stdin', '-z'], ['--source'])),
  'count-objects': readCommand(spec(['-v', '-H', '--verbose', '--human-readable'])),
  whatchanged: readCommand(),
  'diff-tree': contentCommand(LOG, false),
  'diff-index': contentCommand(LOG, false),
  'diff-files': contentCommand(LOG, false),
  cherry: readCommand(spec(['-v'], [], ['--abbrev'])),
  'range-diff': contentCommand(),
  'show-branch': readCommand(spec(['-a', '-r', '--all', '--remotes', '--topo-order', '--date-order', '--current', '--sparse', '--list', '--independent', '--merge-base', '--no-name', '--sha1-name', '--topics', '-g', '--no-color'], [], ['--more', '--reflog', '--color'])),
  fsck: readCommand(spec(['--unreachable', '--dangling', '--no-dangling', '--root', '--tags', '--cache', '--no-reflogs', '--full', '--no-full', '--connectivity-only', '--strict', '--verbose', '-v', '--name-objects', '--progress', '--no-progress'])),
  // `git var -l` lists every setting (credentials included); a named variable is fine.
  var: readCommand(spec([])),
  help: readCommand(spec(['-a', '--all', '-g', '--guides', '--no-external-commands', '--no-aliases', '--verbose', '-c', '--config', '--user-interfaces', '--developer-interfaces', '-m', '--man'])),
  version: readCommand(spec(['--build-options'])),
  reflog: bySecondWord(['show', 'list'], true),
  stash: bySecondWord(['list', 'show'], false),
  worktree: bySecondWord(['list'], false, [], spec(['--porcelain', '-v', '--verbose', '-z'], ['--expire'])),
  submodule: bySecondWord(['status', 'summary'], true, ['update', 'sync', 'init'], spec(['--recursive', '--cached', '--files', '-q', '--quiet'], ['-n', '--summary-limit'])),
  notes: bySecondWord(['list', 'show'], true, [], spec([], ['--ref'])),
  remote: (args, _context, name) => {
    const parsed = parseArgs(args, { stopAtOperand: true });
    const sub = parsed.operands[0]?.value;
    // Remote URLs may carry tokens (https://user:token@host): printing them is not a plain read.
    if (sub === undefined && !parsed.options.size) return { risk: 'read', reason: `\`${name}\` only lists remote names` };
    if (sub === undefined || sub === 'get-url') return { risk: 'read', reason: `\`${name}\` prints remote URLs`, concerns: [`\`${name} -v\` / \`get-url\` print remote URLs, which may hold credentials`] };
    if (sub === 'show' || sub === 'update' || sub === 'prune') return { risk: 'network', reason: `\`${name} ${sub}\` contacts a remote` };
    return { risk: 'write', reason: `\`${name} ${sub}\` changes the remotes` };
  },
  branch: listOrChange(
    ['-l', '--list', '-a', '--all', '-r', '--remotes', '-v', '-vv', '--verbose', '--show-current', '--contains', '--no-contains', '--merged', '--no-merged', '--points-at'],
    ['-d', '-D', '--delete', '-m', '-M', '--move', '-c', '-C', '--copy', '-u', '--set-upstream-to', '--unset-upstream', '--edit-description', '-f', '--force', '-t', '--track', '--no-track', '--create-reflog'],
    spec(['-l', '--list', '-a', '--all', '-r', '--remotes', '-v', '-vv', '--verbose', '--show-current', '--no-column', '--no-color', '-i', '--ignore-case', '--omit-empty', '-q', '--quiet'], ['--contains', '--no-contains', '--merged', '--no-merged', '--points-at', '--sort', '--format'], ['--color', '--column', '--abbrev']),
  ),
  tag: listOrChange(
    ['-l', '--list', '--contains', '--no-contains', '--points-at', '--merged', '--no-merged', '-v', '--verify'],
    ['-d', '--delete', '-a', '--annotate', '-s', '--sign', '-f', '--force', '-m', '-F', '-u', '--local-user', '-e', '--edit', '--create-reflog'],
    spec(['-l', '--list', '-v', '--verify', '-i', '--ignore-case', '--omit-empty', '--no-column', '--no-color'], ['--contains', '--no-contains', '--points-at', '--merged', '--no-merged', '--sort', '--format', '-n'], ['--color', '--column']),
  ),
  config: (args, _context, name) => {
    const parsed = parseArgs(args, { values: ['--file', '-f', '--blob', '--default', '--type', '--comment'] });
    const operands = parsed.operands.map((a) => a.value);
    const sub = operands[0];
    const writes = hasOption(parsed, '--unset', '--unset-all', '--add', '--replace-all', '--edit', '-e', '--remove-section', '--rename-section') || (sub !== undefined && ['set', 'unset', 'rename-section', 'remove-section', 'edit'].includes(sub ?? ''));
    if (writes || (operands.length >= 2 && sub !== 'get')) return { risk: 'write', reason: `\`${name}\` changes git settings` };
    // A single plain setting is a read; listing or matching settings prints credentials and tokens too.
    const key = sub === 'get' ? operands[1] : sub;
    const onlyGet = [...parsed.options.keys()].every((k) => k === '--get');
    if (key && PLAIN_SETTING.test(key) && onlyGet && operands.length <= (sub === 'get' ? 2 : 1)) return { risk: 'read', reason: `\`${name}\` only reads a setting` };
    return { risk: 'read', reason: `\`${name}\` prints settings`, concerns: [`\`${name}\` prints settings that may hold credentials (remote URLs, tokens, headers)`], reads: optionValues(parsed, '--file', '-f') };
  },
  credential: (_args, _context, name) => ({ risk: 'exec', reason: `\`${name}\` runs the credential helpers and prints credentials` }),
  'credential-store': (_args, _context, name) => ({ risk: 'exec', reason: `\`${name}\` prints stored credentials` }),
  'credential-cache': (_args, _context, name) => ({ risk: 'exec', reason: `\`${name}\` prints cached credentials` }),
  archive: (args, _context, name) => {
    const archiveSpec = spec(['-v', '--verbose', '-l', '--list', '--worktree-attributes', '-0', '-1', '-2', '-3', '-4', '-5', '-6', '-7', '-8', '-9'], { '--format': 'text', '--prefix': 'text', '--mtime': 'text', '--add-file': 'read', '-o': 'write', '--output': 'write' });
    const parsed = parseArgs(args, { ...archiveSpec, values: { ...(archiveSpec.values as Record<string, ValueKind>), '--remote': 'text', '--exec': 'text' } });
    if (hasOption(parsed, '--remote', '--exec')) return { risk: 'network', reason: `\`${name} --remote\` contacts a remote` };
    return { ...checked({ risk: 'read', reason: `\`${name}\` only prints` }, parsed, archiveSpec, name), readsTracked: true };
  },
  clean: (args, _context, name) => {
    const cleanSpec = spec(['-n', '--dry-run', '-d', '-x', '-X', '-q', '--quiet'], ['-e', '--exclude']);
    const parsed = parseArgs(args, { ...cleanSpec, flags: [...cleanSpec.flags!, '-f', '--force', '-i', '--interactive'] });
    if (hasOption(parsed, '-n', '--dry-run') && !hasOption(parsed, '-i', '--interactive')) return checked({ risk: 'read', reason: `\`${name} -n\` only lists` }, parsed, cleanSpec, name);
    return { risk: 'write', reason: `\`${name}\` deletes untracked files`, writesUnknown: true };
  },
  apply: (args, _context, name) => {
    const parsed = parseArgs(args, { values: ['-p', '-C', '--exclude', '--include', '--directory', '--whitespace'] });
    const known = ['-p', '-C', '--exclude', '--include', '--directory', '--whitespace', '--check', '--stat', '--numstat', '--summary', '-v', '--verbose', '-z', '-R', '--reverse', '--recount', '--unidiff-zero', '--allow-empty', '--ignore-space-change', '--ignore-whitespace', '--inaccurate-eof'];
    if (hasOption(parsed, '--check', '--stat', '--numstat', '--summary') && [...parsed.options.keys()].every((k) => known.includes(k)) && parsed.operands.every((a) => a.value !== null && !a.value.startsWith('-')))
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
  const parsed = parseArgs(args, GLOBAL);
  const concerns: string[] = [...unknownOptions(parsed, name)];
  if (hasOption(parsed, '-c', '--config-env', '--exec-path', '--git-dir', '--work-tree', '--super-prefix', '--namespace', '--attr-source'))
    concerns.push('`git -c` / `--config-env` / `--git-dir` / `--exec-path` change what git runs or where');
  const sub = parsed.operands[0];
  const cwds = optionValues(parsed, '-C');
  // Relative `-C` dirs chain; one leaving the project (absolute, `..`, `~`) runs another repository's hooks and config.
  for (const dir of cwds) if (dir.value === null || /^[/~]|(^|\/)\.\.(\/|$)/.test(dir.value)) concerns.push(`\`git -C ${dir.template}\` works in another repository, whose config may run programs`);
  const cwd = cwds.length ? joinDirs(cwds) : undefined;
  if (!sub) {
    if (hasOption(parsed, '--version', '-v', '--help', '-h', '--html-path', '--man-path', '--info-path')) return { risk: 'read', reason: '`git --version` only prints', inert: true, concerns };
    return { risk: 'unknown', reason: 'the git subcommand is missing or only known at run time', concerns };
  }
  const judge = sub.value !== null ? SUBCOMMANDS[sub.value] : undefined;
  const verdict: Verdict = judge
    ? judge(args.slice(args.indexOf(sub) + 1), context, `${name} ${sub.value}`)
    : { risk: 'write', reason: sub.value === null ? 'the git subcommand is only known at run time' : `\`${name} ${sub.value}\` changes the repository`, writesUnknown: true };
  return { ...verdict, ...(cwd ? { cwd } : {}), concerns: [...concerns, ...(verdict.concerns ?? [])] };
};

/** `git -C a -C b` works in `a/b`. */
function joinDirs(dirs: Arg[]): Arg {
  if (dirs.length === 1) return dirs[0]!;
  const template = dirs.reduce((path, dir) => (dir.template.startsWith('/') ? dir.template : `${path}/${dir.template}`), '');
  const value = dirs.every((d) => d.value !== null) ? template.replace(/^\//, dirs[0]!.template.startsWith('/') ? '/' : '') : null;
  return { value, template, glob: false };
}
