import { hasOption, optionValues, parseArgs, unknownOptions, type ArgSpec } from '../argv.js';
import { bySubcommand, fixed, type Judge, type JudgeContext, type Verdict } from '../spec.js';
import type { Arg } from '../types.js';
import {
  BIOME, BLACK, BUN_TEST, CARGO_CLIPPY, CARGO_FMT, CARGO_TEST, ESLINT, FLAKE8, GOFMT, GOLANGCI, goTest, goVet, HADOLINT, ISORT, JEST, judgeRun,
  MOCHA, MYPY, PHPUNIT, PRETTIER, PYLINT, PYRIGHT, PYTEST, RSPEC, RUBOCOP, RUFF_CHECK, RUFF_FORMAT, runner, SCRIPT_ARGS, SHELLCHECK, tests, TSC, VITEST,
} from './runners.js';

/** Script names that run tests, linters or type checks without changing files. */
const TEST_SCRIPT = /^(test|tests|spec|lint|typecheck|type-check|types|check|tsc)(:[\w.:-]+)?$/;
const CHANGING_SCRIPT = /fix|format|write|update|snapshot|watch|publish|release|deploy/;

/** True for `test`, `test:unit`, `lint`, ... but not `lint:fix` or `test:update`. */
export function isTestScript(name: string | null | undefined): boolean {
  return !!name && TEST_SCRIPT.test(name) && !CHANGING_SCRIPT.test(name);
}

const network = (what: string): Judge => (_args, _context, name) => ({ risk: 'network', reason: `\`${name}\` ${what}` });
const execs = (what: string): Judge => (_args, _context, name) => ({ risk: 'exec', reason: `\`${name}\` ${what}` });
const reads = (): Judge => (_args, _context, name) => ({ risk: 'read', reason: `\`${name}\` only prints`, inert: true });
/** Flags passed through to test runners that rewrite files (snapshots, autofix). */
const UPDATING_FLAGS = /^(-u|--update|--updateSnapshot|--update-snapshots|--fix|--write|-w|--snapshot-update)(=|$)/;

/**
 * npm's own options that change nothing a script runs: `--script-shell`, `--node-options`,
 * `--prefix`, `--userconfig` and any option not listed keep the run unproven.
 */
const NPM_OPTIONS: ArgSpec = {
  flags: ['-s', '--silent', '-q', '--quiet', '-d', '--verbose', '--if-present', '--workspaces', '--ws', '--include-workspace-root', '--no-color', '--json', '--parseable', '-p', '--long', '-l', '--all', '-a', '--global', '-g', '--production', '--dev', '--no-audit', '--no-fund', '--no-update-notifier', '--foreground-scripts', '--ignore-scripts', '--no-progress', '--stream', '--recursive', '-r', '--aggregate-output', '--no-bail', '--bail', '--parallel', '--reporter-hide-prefix', '--prod', '--no-optional', '--help', '-h', '--version', '-v'],
  values: ['--loglevel', '--color', '--depth', '--omit', '--include', '-w', '--workspace', '--filter', '-F', '--reporter'],
  optional: ['--link'],
};

/** Options shared by package managers and what their test scripts are commonly given. */
const SCRIPT_RUN: ArgSpec = {
  flags: [...NPM_OPTIONS.flags!, ...SCRIPT_ARGS.flags!],
  optional: SCRIPT_ARGS.optional,
  values: [...(NPM_OPTIONS.values as string[]), ...Object.keys(SCRIPT_ARGS.values as Record<string, string>)],
};

/** Concerns for package-manager options: unknown ones, and workspaces outside the project. */
function packageManagerConcerns(args: Arg[], name: string, argSpec: ArgSpec = NPM_OPTIONS): string[] {
  const parsed = parseArgs(args, argSpec);
  const concerns = unknownOptions(parsed, name);
  for (const dir of optionValues(parsed, '-w', '--workspace', '--filter', '-F'))
    if (dir.value === null || /^[/~]|(^|\/)\.\.(\/|$)/.test(dir.value)) concerns.push(`\`${name}\` is pointed outside the project (${dir.template})`);
  return concerns;
}

const BUILTIN_REPORTERS = new Set(['default', 'basic', 'verbose', 'dot', 'json', 'junit', 'tap', 'tap-flat', 'spec', 'min', 'list', 'progress', 'summary', 'github-actions', 'hanging-process', 'nyan', 'landing', 'tree', 'silent']);

/** `npm test [npm options] [-- script args]`: every option known, none that rewrites files. */
const testRun = (): Judge => (args, context, name) => {
  const updating = args.find((a) => UPDATING_FLAGS.test(a.value ?? ''));
  if (updating) return { risk: 'write', reason: `\`${name}\` with ${updating.value} rewrites files`, writesUnknown: true };
  const dash = args.findIndex((a) => a.value === '--');
  const own = dash < 0 ? args : args.slice(0, dash);
  const script = dash < 0 ? [] : args.slice(dash + 1);
  const scriptArgs = parseArgs(script, SCRIPT_ARGS);
  const concerns = [...packageManagerConcerns(own, name, SCRIPT_RUN), ...unknownOptions(scriptArgs, `${name} --`)];
  // A reporter that is not a runner's built-in is a module the runner loads.
  for (const reporter of [...optionValues(parseArgs(own, SCRIPT_RUN), '--reporter'), ...optionValues(scriptArgs, '--reporter')])
    if (reporter.value === null || !BUILTIN_REPORTERS.has(reporter.value)) concerns.push(`\`${name}\` is given the reporter ${reporter.template}, which may be a module it loads`);
  const verdict = tests(context, `\`${name}\``);
  return concerns.length ? { ...verdict, concerns } : verdict;
};

/** `npm run X` / `yarn X`: a test-like script counts as a test run, any other runs project code. */
function runScript(args: Parameters<Judge>[0], context: JudgeContext, name: string): Verdict {
  const script = parseArgs(args, { stopAtOperand: true }).operands[0];
  if (!script) return { risk: 'read', reason: `\`${name}\` lists the scripts`, inert: true, concerns: packageManagerConcerns(args, name) };
  if (isTestScript(script.value)) return testRun()([...args.slice(0, args.indexOf(script)), ...args.slice(args.indexOf(script) + 1)], context, `${name} ${script.value}`);
  return { risk: 'exec', reason: `\`${name} ${script.value ?? '<run-time value>'}\` runs a project script` };
}

/** `npm exec`, `npx`, `pnpm dlx`, `yarn exec`: run a package binary (downloading it if missing); the command is judged too. */
const packageExec: Judge = (args, _context, name) => {
  const parsed = parseArgs(args, { values: ['-p', '--package', '-c', '--call', '-w', '--workspace', '--registry', '--cache', '--prefix', '-C', '--userconfig'], stopAtOperand: true });
  const first = parsed.operands[0];
  return {
    risk: 'network',
    reason: `\`${name}\` runs a package binary, downloading it if missing`,
    runs: first ? [args.slice(args.indexOf(first))] : [],
    scripts: optionValues(parsed, '-c', '--call'),
  };
};

const installs = network('installs or changes packages (network)');

/** npm subcommands that only print, with npm's options checked (`npm help --viewer=browser` opens a program). */
const npmReads = (): Judge => (args, _context, name) => {
  const concerns = packageManagerConcerns(args, name);
  return { risk: 'read', reason: `\`${name}\` only prints`, inert: true, ...(concerns.length ? { concerns } : {}) };
};

const npmTable: Record<string, Judge> = {
  test: testRun(),
  t: testRun(),
  tst: testRun(),
  run: runScript,
  'run-script': runScript,
  rum: runScript,
  urn: runScript,
  ls: npmReads(),
  list: npmReads(),
  ll: npmReads(),
  la: npmReads(),
  explain: npmReads(),
  why: npmReads(),
  root: npmReads(),
  bin: npmReads(),
  prefix: npmReads(),
  help: npmReads(),
  query: npmReads(),
  fund: network('looks up funding pages, opening a browser for a package'),
  'help-search': npmReads(),
  config: (args, _context, name) => {
    const sub = parseArgs(args, { stopAtOperand: true }).operands[0]?.value;
    if (sub !== 'get' && sub !== 'list' && sub !== 'ls') return { risk: 'write', reason: `\`${name}\` changes npm settings` };
    // Auth settings print tokens (yarn with --no-redacted, older npm versions): not a plain read.
    const secret = args.some((a) => a.value === null || /auth|token|password|_pass|cert|key|redacted|json/i.test(a.value));
    return secret ? { risk: 'read', reason: `\`${name} ${sub}\` prints settings`, concerns: [`\`${name}\` may print credentials`] } : { risk: 'read', reason: `\`${name} ${sub}\` only prints` };
  },
  version: (args, _context, name) => (parseArgs(args).operands.length ? { risk: 'write', reason: `\`${name}\` bumps the version` } : { risk: 'read', reason: `\`${name}\` only prints` }),
  start: execs('starts the project'),
  restart: execs('restarts the project'),
  stop: execs('stops the project'),
  exec: packageExec,
  x: packageExec,
  init: network('creates a project from a package'),
  create: network('creates a project from a package'),
  view: network('queries the registry'),
  info: network('queries the registry'),
  show: network('queries the registry'),
  v: network('queries the registry'),
  search: network('queries the registry'),
  outdated: network('queries the registry'),
  audit: network('queries the registry'),
  doctor: network('queries the registry'),
  ping: network('queries the registry'),
  whoami: network('queries the registry'),
  'install-test': installs,
  it: installs,
};
for (const sub of ['install', 'i', 'in', 'ins', 'inst', 'insta', 'instal', 'isntall', 'add', 'ci', 'clean-install', 'update', 'up', 'upgrade', 'uninstall', 'remove', 'rm', 'r', 'un', 'unlink', 'link', 'ln', 'publish', 'unpublish', 'deprecate', 'dist-tag', 'dedupe', 'ddp', 'prune', 'rebuild', 'rb', 'pack', 'login', 'logout', 'adduser', 'owner', 'access', 'team', 'token', 'star', 'unstar', 'cache', 'shrinkwrap', 'pkg', 'set', 'edit', 'install-ci-test', 'cit', 'sbom', 'repo', 'docs', 'bugs', 'home'])
  npmTable[sub] ??= installs;

const NPM_GLOBAL_VALUES = ['--prefix', '-w', '--workspace', '--userconfig', '--registry', '--cache', '-C'];

const npmBySubcommand = bySubcommand(npmTable, (args, _context, name) => {
  const parsed = parseArgs(args);
  if (hasOption(parsed, '--version', '-v', '--help', '-h')) return { risk: 'read', reason: `\`${name} --version\` only prints`, inert: true };
  return { risk: 'unknown', reason: `\`${name}\` with these arguments is not known to be safe` };
}, NPM_GLOBAL_VALUES);

/** npm: options before the subcommand are npm's own config (`--prefix`, `--script-shell`): only known ones keep it provable. */
const npm: Judge = (args, context, name) => {
  const first = parseArgs(args, { values: NPM_GLOBAL_VALUES, stopAtOperand: true }).operands[0];
  const before = first ? args.slice(0, args.indexOf(first)) : args;
  const verdict = npmBySubcommand(args, context, name);
  const concerns = packageManagerConcerns(before, name);
  return concerns.length ? { ...verdict, concerns: [...concerns, ...(verdict.concerns ?? [])] } : verdict;
};

/** yarn, pnpm and bun run scripts by name (`yarn lint`) as well as with `run`. */
function scriptRunner(table: Record<string, Judge>, bare: Judge): Judge {
  return (args, context, name) => {
    const parsed = parseArgs(args, { values: NPM_GLOBAL_VALUES, stopAtOperand: true });
    const sub = parsed.operands[0];
    if (!sub) return hasOption(parsed, '--version', '-v', '--help', '-h') ? { risk: 'read', reason: `\`${name} --version\` only prints`, inert: true } : bare(args, context, name);
    const judge = sub.value !== null ? table[sub.value] : undefined;
    const rest = args.slice(args.indexOf(sub) + 1);
    const globals = packageManagerConcerns(args.slice(0, args.indexOf(sub)), name);
    const verdict = judge ? judge(rest, context, `${name} ${sub.value}`) : runScript(args.slice(args.indexOf(sub)), context, name);
    return globals.length ? { ...verdict, concerns: [...globals, ...(verdict.concerns ?? [])] } : verdict;
  };
}

const yarnTable: Record<string, Judge> = {
  test: testRun(),
  run: runScript,
  list: reads(),
  why: reads(),
  bin: reads(),
  help: reads(),
  versions: reads(),
  config: npmTable.config!,
  info: network('queries the registry'),
  npm: network('talks to the registry'),
  outdated: network('queries the registry'),
  audit: network('queries the registry'),
  dlx: packageExec,
  exec: packageExec,
  node: execs('runs node'),
  start: execs('starts the project'),
  create: network('creates a project from a package'),
  init: network('creates a project'),
};
for (const sub of ['install', 'i', 'add', 'remove', 'rm', 'upgrade', 'up', 'update', 'upgrade-interactive', 'global', 'publish', 'link', 'unlink', 'import', 'dedupe', 'patch', 'patch-commit', 'pack', 'set', 'plugin', 'cache', 'rebuild', 'prune', 'fetch', 'ci', 'store', 'env', 'setup', 'version', 'workspace', 'workspaces'])
  yarnTable[sub] ??= installs;

const yarn = scriptRunner(yarnTable, installs);
const pnpm = scriptRunner({ ...yarnTable, ls: reads(), la: reads(), ll: reads(), exec: packageExec, x: packageExec, dlx: packageExec }, installs);
const bun = scriptRunner(
  { ...yarnTable, test: runner(BUN_TEST), x: packageExec, build: fixed('write', '`bun build` writes bundles', { writesUnknown: true }), pm: network('manages packages') },
  execs('runs a file'),
);

const pip = bySubcommand(
  { list: reads(), show: reads(), freeze: reads(), check: reads(), help: reads(), debug: reads(), inspect: reads(), cache: network('manages the cache'), config: network('changes settings') },
  (args, _context, name) => (hasOption(parseArgs(args), '--version', '-V', '--help', '-h') ? { risk: 'read', reason: `\`${name} --version\` only prints`, inert: true } : { risk: 'network', reason: `\`${name}\` installs or changes packages (network)` }),
);

const cargo = bySubcommand(
  {
    test: runner(CARGO_TEST),
    nextest: (args, context, name) => (args[0]?.value === 'run' || args[0]?.value === 'list' ? judgeRun(args.slice(1), CARGO_TEST, context, `${name} ${args[0].value}`) : { risk: 'unknown', reason: `\`${name}\` with these arguments is not known to be safe` }),
    check: runner(CARGO_TEST),
    clippy: runner(CARGO_CLIPPY),
    fmt: runner(CARGO_FMT),
    bench: runner(CARGO_TEST),
    build: fixed('write', '`cargo build` writes build output', { writesUnknown: true }),
    b: fixed('write', '`cargo build` writes build output', { writesUnknown: true }),
    doc: fixed('write', '`cargo doc` writes documentation', { writesUnknown: true }),
    run: execs('runs the program'),
    r: execs('runs the program'),
    tree: network('may download the crate index'),
    metadata: network('may download the crate index'),
    version: reads(),
    help: reads(),
    clean: fixed('write', '`cargo clean` deletes build output', { writesUnknown: true }),
  },
  (args, _context, name) => (hasOption(parseArgs(args), '--version', '-V') ? { risk: 'read', reason: `\`${name} --version\` only prints`, inert: true } : { risk: 'network', reason: `\`${name}\` with these arguments may download or publish crates` }),
);

const go = bySubcommand(
  {
    test: goTest,
    vet: goVet,
    build: fixed('write', '`go build` writes binaries', { writesUnknown: true }),
    install: network('downloads and installs'),
    get: network('downloads modules'),
    mod: (args, _context, name) => {
      const sub = parseArgs(args, { stopAtOperand: true }).operands[0]?.value;
      return { risk: 'network', reason: `\`${name} ${sub ?? ''}\` may download modules`.replace('  ', ' ') };
    },
    run: execs('runs the program'),
    fmt: fixed('write', '`go fmt` rewrites files', { writesUnknown: true }),
    generate: execs('runs generators'),
    version: reads(),
    env: (args, _context, name) => (hasOption(parseArgs(args), '-w', '-u') ? { risk: 'write', reason: `\`${name} -w\` changes settings` } : { risk: 'read', reason: `\`${name}\` only prints`, inert: true }),
    list: network('may download modules'),
    doc: reads(),
    help: reads(),
    clean: fixed('write', '`go clean` deletes files', { writesUnknown: true }),
  },
  () => ({ risk: 'unknown', reason: '`go` with these arguments is not known to be safe' }),
);

/** make: only the project's own Makefile, test-like targets, and options that change neither what runs nor where. */
const MAKE: ArgSpec = { flags: ['-s', '--silent', '--quiet', '-k', '--keep-going', '-S', '--no-keep-going', '--stop', '--no-print-directory', '-w', '--print-directory', '-r', '--no-builtin-rules', '-R', '--no-builtin-variables', '--warn-undefined-variables'], optional: ['--jobs', '--output-sync', '-O', '--load-average'], values: ['-j', '-l'] };
const make: Judge = (args, context, name) => {
  const parsed = parseArgs(args, MAKE);
  if (args.length === 1 && ['--version', '-v', '--help', '-h'].includes(args[0]!.value ?? '')) return { risk: 'read', reason: `\`${name} --version\` only prints`, inert: true };
  const targets = parsed.operands.filter((a) => !(a.value ?? '').includes('='));
  const assignments = parsed.operands.filter((a) => (a.value ?? '').includes('='));
  if (targets.length && targets.every((t) => isTestScript(t.value))) {
    const concerns = [...unknownOptions(parsed, name), ...assignments.map((a) => `\`${name} ${a.template}\` overrides a Makefile variable, which may change what recipes run`)];
    const verdict = tests(context, `\`${name} ${targets.map((t) => t.value).join(' ')}\``);
    return concerns.length ? { ...verdict, concerns } : verdict;
  }
  return { risk: 'exec', reason: `\`${name}\` runs Makefile recipes`, writesUnknown: true };
};

const docker = bySubcommand(
  { ps: reads(), images: reads(), logs: reads(), inspect: reads(), version: reads(), info: reads(), stats: reads(), top: reads(), port: reads(), history: reads(), diff: reads(), events: reads() },
  (_args, _context, name) => ({ risk: 'exec', reason: `\`${name}\` with these arguments runs or changes containers and may reach the network` }),
);

/** Build, test and package tools. */
export const devSpecs: Record<string, Judge> = {
  npm,
  yarn,
  pnpm,
  bun,
  npx: packageExec,
  pnpx: packageExec,
  bunx: packageExec,
  pip,
  pip3: pip,
  pipx: network('installs or runs packages (network)'),
  poetry: execs('manages a Python project'),
  uv: execs('manages a Python project'),
  pipenv: execs('manages a Python project'),
  conda: network('manages packages (network)'),
  gem: network('manages gems (network)'),
  bundle: execs('manages gems'),
  composer: network('manages packages (network)'),
  cargo,
  go,
  make,
  gmake: make,
  tsc: runner(TSC),
  vitest: (args, context, name) => {
    const sub = args[0]?.value;
    if (sub === 'init') return { risk: 'write', reason: `\`${name} init\` writes a config`, writesUnknown: true };
    const rest = sub === 'run' || sub === 'related' || sub === 'list' ? args.slice(1) : args;
    return judgeRun(rest, VITEST, context, name);
  },
  jest: runner(JEST),
  mocha: runner(MOCHA),
  ava: runner({ flags: ['--verbose', '-v', '--serial', '-s', '--fail-fast', '--tap', '-t', '--no-worker-threads'], values: ['--timeout', '-T', '--match', '-m', '--concurrency', '-c'], rewrites: ['--update-snapshots', '-u', '--watch', '-w'] }),
  pytest: runner(PYTEST),
  'py.test': runner(PYTEST),
  rspec: runner(RSPEC),
  phpunit: runner(PHPUNIT),
  mypy: runner(MYPY),
  pyright: runner(PYRIGHT),
  flake8: runner(FLAKE8),
  pylint: runner(PYLINT),
  shellcheck: runner(SHELLCHECK),
  hadolint: runner(HADOLINT),
  eslint: runner(ESLINT),
  prettier: runner(PRETTIER),
  biome: (args, context, name) => {
    const sub = args[0]?.value;
    if (sub === 'version' || sub === '--version') return { risk: 'read', reason: `\`${name} --version\` only prints`, inert: true };
    if (sub === 'check' || sub === 'lint' || sub === 'ci' || sub === 'format') return judgeRun(args.slice(1), BIOME, context, `${name} ${sub}`);
    return { risk: 'unknown', reason: `\`${name}\` with these arguments is not known to be safe` };
  },
  ruff: (args, context, name) => {
    const sub = args[0]?.value;
    if (sub === 'version' || sub === '--version' || sub === '-V' || sub === 'rule' || sub === '--help' || sub === '-h') return { risk: 'read', reason: `\`${name}\` only prints`, inert: true };
    if (sub === 'format') return judgeRun(args.slice(1), RUFF_FORMAT, context, `${name} format`);
    if (sub === 'check') return judgeRun(args.slice(1), RUFF_CHECK, context, `${name} check`);
    return { risk: 'unknown', reason: `\`${name}\` with these arguments is not known to be safe` };
  },
  black: runner(BLACK),
  isort: runner(ISORT),
  rubocop: runner(RUBOCOP),
  gofmt: runner(GOFMT),
  'golangci-lint': (args, context, name) => {
    const sub = args[0]?.value;
    if (sub === 'version' || sub === '--version' || sub === 'linters' || sub === 'help') return { risk: 'read', reason: `\`${name}\` only prints`, inert: true };
    if (sub === 'run') return judgeRun(args.slice(1), GOLANGCI, context, `${name} run`);
    return { risk: 'unknown', reason: `\`${name}\` with these arguments is not known to be safe` };
  },
  docker,
  podman: docker,
  kubectl: network('talks to a cluster (network)'),
  helm: network('talks to a cluster (network)'),
  terraform: network('talks to cloud providers (network)'),
  gh: network('talks to GitHub (network)'),
  glab: network('talks to GitLab (network)'),
  aws: network('talks to AWS (network)'),
  gcloud: network('talks to Google Cloud (network)'),
  az: network('talks to Azure (network)'),
  brew: network('installs or changes packages (network)'),
  'apt-get': network('installs or changes system packages (network)'),
  apt: network('installs or changes system packages (network)'),
  yum: network('installs or changes system packages (network)'),
  dnf: network('installs or changes system packages (network)'),
  pacman: network('installs or changes system packages (network)'),
  apk: network('installs or changes system packages (network)'),
  snap: network('installs or changes system packages (network)'),
  port: network('installs or changes system packages (network)'),
};
