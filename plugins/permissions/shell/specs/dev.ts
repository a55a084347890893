import { hasOption, parseArgs } from '../argv.js';
import { bySubcommand, fixed, type Judge, type JudgeContext, type Verdict } from '../spec.js';

/** Script names that run tests, linters or type checks without changing files. */
const TEST_SCRIPT = /^(test|tests|spec|lint|typecheck|type-check|types|check|tsc)(:[\w.:-]+)?$/;
const CHANGING_SCRIPT = /fix|format|write|update|snapshot|watch|publish|release|deploy/;

/** True for `test`, `test:unit`, `lint`, ... but not `lint:fix` or `test:update`. */
export function isTestScript(name: string | null | undefined): boolean {
  return !!name && TEST_SCRIPT.test(name) && !CHANGING_SCRIPT.test(name);
}

function tests(context: JudgeContext, what: string): Verdict {
  return context.trustTests
    ? { risk: 'test', reason: `${what} runs the project's tests or checks` }
    : { risk: 'exec', reason: `${what} runs project code (tests are not trusted by permissions.trustTestCommands)` };
}

const network = (what: string): Judge => (_args, _context, name) => ({ risk: 'network', reason: `\`${name}\` ${what}` });
const execs = (what: string): Judge => (_args, _context, name) => ({ risk: 'exec', reason: `\`${name}\` ${what}` });
const reads = (): Judge => (_args, _context, name) => ({ risk: 'read', reason: `\`${name}\` only prints`, inert: true });
/** Flags passed through to test runners that rewrite files (snapshots, autofix). */
const UPDATING_FLAGS = /^(-u|--update|--updateSnapshot|--update-snapshots|--fix|--write|-w|--snapshot-update)(=|$)/;
const testRun = (): Judge => (args, context, name) =>
  args.some((a) => UPDATING_FLAGS.test(a.value ?? ''))
    ? { risk: 'write', reason: `\`${name}\` with ${args.find((a) => UPDATING_FLAGS.test(a.value ?? ''))!.value} rewrites files`, writesUnknown: true }
    : tests(context, `\`${name}\``);

/** `npm run X` / `yarn X`: a test-like script counts as a test run, any other runs project code. */
function runScript(args: Parameters<Judge>[0], context: JudgeContext, name: string): Verdict {
  const script = parseArgs(args, { stopAtOperand: true }).operands[0];
  if (!script) return { risk: 'read', reason: `\`${name}\` lists the scripts`, inert: true };
  if (isTestScript(script.value)) return testRun()(args.slice(args.indexOf(script) + 1), context, `${name} ${script.value}`);
  return { risk: 'exec', reason: `\`${name} ${script.value ?? '<run-time value>'}\` runs a project script` };
}

const installs = network('installs or changes packages (network)');

const npmTable: Record<string, Judge> = {
  test: testRun(),
  t: testRun(),
  tst: testRun(),
  run: runScript,
  'run-script': runScript,
  rum: runScript,
  urn: runScript,
  ls: reads(),
  list: reads(),
  ll: reads(),
  la: reads(),
  explain: reads(),
  why: reads(),
  root: reads(),
  bin: reads(),
  prefix: reads(),
  help: reads(),
  query: reads(),
  fund: network('looks up funding pages, opening a browser for a package'),
  'help-search': reads(),
  config: (args, _context, name) => {
    const sub = parseArgs(args, { stopAtOperand: true }).operands[0]?.value;
    return sub === 'get' || sub === 'list' || sub === 'ls' ? { risk: 'read', reason: `\`${name} ${sub}\` only prints` } : { risk: 'write', reason: `\`${name}\` changes npm settings` };
  },
  version: (args, _context, name) => (parseArgs(args).operands.length ? { risk: 'write', reason: `\`${name}\` bumps the version` } : { risk: 'read', reason: `\`${name}\` only prints` }),
  start: execs('starts the project'),
  restart: execs('restarts the project'),
  stop: execs('stops the project'),
  exec: network('runs a package binary, downloading it if missing'),
  x: network('runs a package binary, downloading it if missing'),
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

const npm = bySubcommand(npmTable, (args, _context, name) => {
  const parsed = parseArgs(args);
  if (hasOption(parsed, '--version', '-v', '--help', '-h')) return { risk: 'read', reason: `\`${name} --version\` only prints`, inert: true };
  return { risk: 'unknown', reason: `\`${name}\` with these arguments is not known to be safe` };
}, NPM_GLOBAL_VALUES);

/** yarn, pnpm and bun run scripts by name (`yarn lint`) as well as with `run`. */
function scriptRunner(table: Record<string, Judge>, bare: Judge): Judge {
  return (args, context, name) => {
    const parsed = parseArgs(args, { values: NPM_GLOBAL_VALUES, stopAtOperand: true });
    const sub = parsed.operands[0];
    if (!sub) return hasOption(parsed, '--version', '-v', '--help', '-h') ? { risk: 'read', reason: `\`${name} --version\` only prints`, inert: true } : bare(args, context, name);
    const judge = sub.value !== null ? table[sub.value] : undefined;
    const rest = args.slice(args.indexOf(sub) + 1);
    if (judge) return judge(rest, context, `${name} ${sub.value}`);
    return runScript(args.slice(args.indexOf(sub)), context, name);
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
  dlx: network('downloads and runs a package'),
  exec: execs('runs a command'),
  node: execs('runs node'),
  start: execs('starts the project'),
  create: network('creates a project from a package'),
  init: network('creates a project'),
};
for (const sub of ['install', 'i', 'add', 'remove', 'rm', 'upgrade', 'up', 'update', 'upgrade-interactive', 'global', 'publish', 'link', 'unlink', 'import', 'dedupe', 'patch', 'patch-commit', 'pack', 'set', 'plugin', 'cache', 'rebuild', 'prune', 'fetch', 'ci', 'store', 'env', 'setup', 'version', 'workspace', 'workspaces'])
  yarnTable[sub] ??= installs;

const yarn = scriptRunner(yarnTable, installs);
const pnpm = scriptRunner({ ...yarnTable, ls: reads(), la: reads(), ll: reads(), exec: execs('runs a command'), x: network('downloads and runs a package') }, installs);
const bun = scriptRunner(
  { ...yarnTable, test: testRun(), x: network('downloads and runs a package'), build: fixed('write', '`bun build` writes bundles', { writesUnknown: true }), pm: network('manages packages') },
  execs('runs a file'),
);

const pip = bySubcommand(
  { list: reads(), show: reads(), freeze: reads(), check: reads(), help: reads(), debug: reads(), inspect: reads(), cache: network('manages the cache'), config: network('changes settings') },
  (args, _context, name) => (hasOption(parseArgs(args), '--version', '-V', '--help', '-h') ? { risk: 'read', reason: `\`${name} --version\` only prints`, inert: true } : { risk: 'network', reason: `\`${name}\` installs or changes packages (network)` }),
);

/** Tools that only check when given one of `checkFlags`, and change files with one of `writeFlags`. */
function checker(writeFlags: string[], checkFlags?: string[]): Judge {
  return (args, context, name) => {
    const parsed = parseArgs(args);
    if (hasOption(parsed, '--version', '-v', '-V')) return { risk: 'read', reason: `\`${name} --version\` only prints`, inert: true };
    if (hasOption(parsed, ...writeFlags)) return { risk: 'write', reason: `\`${name}\` rewrites files`, writesUnknown: true };
    if (checkFlags && !hasOption(parsed, ...checkFlags)) return { risk: 'write', reason: `\`${name}\` rewrites files`, writesUnknown: true };
    return tests(context, `\`${name}\``);
  };
}

const tsc: Judge = (args, context, name) => {
  const parsed = parseArgs(args, { values: ['-p', '--project'] });
  if (hasOption(parsed, '--version', '-v', '--help', '-h')) return { risk: 'read', reason: `\`${name} --version\` only prints`, inert: true };
  if (hasOption(parsed, '--noEmit') && !hasOption(parsed, '-b', '--build', '-w', '--watch', '--init')) return tests(context, `\`${name} --noEmit\``);
  return { risk: 'write', reason: `\`${name}\` writes compiled files`, writesUnknown: true };
};

const cargo = bySubcommand(
  {
    test: testRun(),
    nextest: testRun(),
    check: testRun(),
    clippy: checker(['--fix']),
    fmt: checker([], ['--check']),
    bench: testRun(),
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
    test: testRun(),
    vet: testRun(),
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

const make: Judge = (args, context, name) => {
  const parsed = parseArgs(args, { values: ['-C', '-f', '--file', '--makefile', '-j', '--jobs', '-l', '-o', '-W', '-I', '--directory'] });
  if (hasOption(parsed, '--version', '-v', '--help', '-h')) return { risk: 'read', reason: `\`${name} --version\` only prints`, inert: true };
  const targets = parsed.operands.filter((a) => !(a.value ?? '').includes('='));
  if (targets.length && targets.every((t) => isTestScript(t.value))) return tests(context, `\`${name} ${targets.map((t) => t.value).join(' ')}\``);
  return { risk: 'exec', reason: `\`${name}\` runs Makefile recipes`, writesUnknown: true };
};

const docker = bySubcommand(
  { ps: reads(), images: reads(), logs: reads(), inspect: reads(), version: reads(), info: reads(), stats: reads(), top: reads(), port: reads(), history: reads(), diff: reads(), events: reads() },
  (_args, _context, name) => ({ risk: 'exec', reason: `\`${name}\` with these arguments runs or changes containers and may reach the network` }),
);

/** `npx tool args`: reaches the network when the tool is missing, and runs it (judged too, for hard blocks). */
const packageRunner: Judge = (args, _context, name) => {
  const parsed = parseArgs(args, { values: ['-p', '--package', '-c', '--call'], stopAtOperand: true });
  const first = parsed.operands[0];
  return { risk: 'network', reason: `\`${name}\` runs a package binary, downloading it if missing`, runs: first ? [args.slice(args.indexOf(first))] : [] };
};

/** Build, test and package tools. */
export const devSpecs: Record<string, Judge> = {
  npm,
  yarn,
  pnpm,
  bun,
  npx: packageRunner,
  pnpx: packageRunner,
  bunx: packageRunner,
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
  tsc,
  vitest: checker(['-u', '--update']),
  jest: checker(['-u', '--updateSnapshot', '--init']),
  mocha: testRun(),
  ava: testRun(),
  pytest: testRun(),
  'py.test': testRun(),
  rspec: testRun(),
  phpunit: testRun(),
  mypy: testRun(),
  pyright: testRun(),
  flake8: testRun(),
  pylint: testRun(),
  shellcheck: testRun(),
  hadolint: testRun(),
  eslint: checker(['--fix', '--fix-dry-run', '--init', '-o', '--output-file']),
  prettier: checker(['--write', '-w']),
  biome: checker(['--write', '--apply', '--apply-unsafe', '--fix']),
  ruff: (args, context, name) => {
    const parsed = parseArgs(args, { stopAtOperand: true });
    const sub = parsed.operands[0]?.value;
    const rest = parseArgs(args.slice(sub ? args.indexOf(parsed.operands[0]!) + 1 : 0));
    if (hasOption(parsed, '--version', '-V', '--help', '-h') || sub === 'version' || sub === 'rule') return { risk: 'read', reason: `\`${name}\` only prints`, inert: true };
    if (sub === 'format' && !hasOption(rest, '--check', '--diff')) return { risk: 'write', reason: `\`${name} format\` rewrites files`, writesUnknown: true };
    if (hasOption(rest, '--fix', '--unsafe-fixes', '--add-noqa')) return { risk: 'write', reason: `\`${name} --fix\` rewrites files`, writesUnknown: true };
    return tests(context, `\`${name}\``);
  },
  black: checker([], ['--check', '--diff']),
  isort: checker([], ['--check', '--check-only', '-c', '--diff']),
  rubocop: checker(['-a', '-A', '--autocorrect', '--autocorrect-all', '--auto-correct']),
  gofmt: checker(['-w']),
  'golangci-lint': checker(['--fix']),
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
