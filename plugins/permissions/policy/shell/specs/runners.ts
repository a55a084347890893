import { hasOption, optionValues, parseArgs, unknownOptions, valuesOfKind, type ArgSpec, type ParsedArgs } from '../argv.js';
import type { Judge, JudgeContext, Verdict } from '../spec.js';
import type { Arg } from '../types.js';

/**
 * Test and lint runners ("test" risk, allowed with permissions.trustTestCommands). Each lists the
 * options it knows: anything else, an option that loads code (a plugin, a reporter module, a
 * config file), or one that writes outside the runner's default places keeps it unproven.
 */

/** The verdict for a test or lint run, trusted or not. */
export function tests(context: JudgeContext, what: string): Verdict {
  return context.trustTests
    ? { risk: 'test', reason: `${what} runs the project's tests or checks` }
    : { risk: 'exec', reason: `${what} runs project code (tests are not trusted by permissions.trustTestCommands)` };
}

/** What a runner knows about its options. */
export interface RunnerSpec extends ArgSpec {
  /** Options that rewrite project files (autofix, snapshot updates): the run is a write. */
  rewrites?: readonly string[];
  /** When given, the run only checks with one of these (`prettier --check`); without, it rewrites files. */
  checkOnly?: readonly string[];
  /** Option values that must be one of the runner's own names (a reporter), not a module it would load. */
  builtins?: Readonly<Record<string, readonly string[]>>;
  /** Options that print and exit (`--version`). */
  prints?: readonly string[];
  /** Words after `--` go to another program (a test binary); these are the ones known to be harmless. */
  passthrough?: ArgSpec;
}

/** Judges a runner's arguments against its spec. */
export function judgeRun(args: Arg[], spec: RunnerSpec, context: JudgeContext, name: string): Verdict {
  const dashdash = args.findIndex((a) => a.value === '--');
  const own = dashdash >= 0 && spec.passthrough ? args.slice(0, dashdash) : args;
  const rest = dashdash >= 0 && spec.passthrough ? args.slice(dashdash + 1) : [];
  const known: ArgSpec = { ...spec, flags: [...(spec.flags ?? []), ...(spec.rewrites ?? []), ...(spec.prints ?? [])] };
  const parsed = parseArgs(own, known);
  if (spec.prints && hasOption(parsed, ...spec.prints) && !parsed.unknown.length) return { risk: 'read', reason: `\`${name} --version\` only prints`, inert: true };
  if (spec.rewrites && hasOption(parsed, ...spec.rewrites)) return { risk: 'write', reason: `\`${name}\` with ${spec.rewrites.filter((r) => parsed.options.has(r)).join(', ')} rewrites files`, writesUnknown: true };
  if (spec.checkOnly && !hasOption(parsed, ...spec.checkOnly)) return { risk: 'write', reason: `\`${name}\` without ${spec.checkOnly[0]} rewrites files`, writesUnknown: true };
  const concerns = [...unknownOptions(parsed, name), ...valueConcerns(parsed, spec, name)];
  if (rest.length) concerns.push(...unknownOptions(parseArgs(rest, spec.passthrough!), `${name} --`));
  const reads = valuesOfKind(parsed, known, 'read');
  const verdict: Verdict = { ...tests(context, `\`${name}\``), ...(reads.length ? { reads } : {}) };
  return concerns.length ? { ...verdict, concerns } : verdict;
}

/** Values that name a file to write, code to load, or a module where only built-in names are safe. */
function valueConcerns(parsed: ParsedArgs, spec: RunnerSpec, name: string): string[] {
  const concerns: string[] = [];
  for (const [option, allowed] of Object.entries(spec.builtins ?? {}))
    for (const value of optionValues(parsed, option))
      if (value.value === null || !value.value.split(',').every((v) => allowed.includes(v)))
        concerns.push(`\`${name} ${option} ${value.template}\` may load a module rather than a built-in`);
  const kinds = spec.values && !Array.isArray(spec.values) ? Object.entries(spec.values as Record<string, string>) : [];
  for (const [option, kind] of kinds) {
    if (kind === 'text' || kind === 'read' || !parsed.options.has(option)) continue;
    concerns.push(`\`${name} ${option}\` ${kind === 'write' ? 'writes a file' : 'loads code'}`);
  }
  return concerns;
}

/** A runner judge from its spec. */
export function runner(spec: RunnerSpec): Judge {
  return (args, context, name) => judgeRun(args, spec, context, name);
}

const text = (...names: string[]) => Object.fromEntries(names.map((n) => [n, 'text' as const]));

/** Arguments npm/yarn/pnpm pass to a test script after `--`: what everyday runs use, nothing that loads or writes. */
export const SCRIPT_ARGS: ArgSpec = {
  flags: ['--run', '--silent', '--coverage', '--passWithNoTests', '-v', '--verbose', '-q', '--quiet', '-x', '--runInBand', '-i', '--ci', '--bail', '--no-color', '--color', '--detectOpenHandles', '--forceExit', '--onlyChanged', '--listTests'],
  optional: ['--watch', '--watchAll'],
  values: text('-t', '--testNamePattern', '--testPathPattern', '--reporter', '--maxWorkers', '--shard', '--testTimeout', '--grep', '-g', '--project'),
};

export const VITEST: RunnerSpec = {
  flags: ['--run', '--silent', '--coverage', '--passWithNoTests', '--allowOnly', '--no-color', '--color', '--globals', '--dom', '--isolate', '--no-isolate', '--no-file-parallelism', '--fileParallelism', '--typecheck', '--logHeapUsage', '--hideSkippedTests', '--expandSnapshotDiff', '--clearScreen', '--no-watch', '--standalone', '--changed', '--bail'],
  optional: ['--watch', '--changed', '--bail', '--coverage.enabled'],
  values: { ...text('-t', '--testNamePattern', '--reporter', '--pool', '--project', '--shard', '--retry', '--testTimeout', '--hookTimeout', '--maxWorkers', '--minWorkers', '--exclude', '--environment', '--mode', '--sequence.seed', '--teardownTimeout', '--maxConcurrency'), '--outputFile': 'write', '--config': 'code', '-c': 'code', '--root': 'code', '-r': 'code', '--dir': 'code', '--setupFiles': 'code', '--globalSetup': 'code' },
  rewrites: ['-u', '--update'],
  prints: ['-v', '--version', '-h', '--help'],
  builtins: { '--reporter': ['default', 'basic', 'verbose', 'dot', 'json', 'junit', 'tap', 'tap-flat', 'hanging-process', 'github-actions', 'tree'], '--environment': ['node', 'jsdom', 'happy-dom', 'edge-runtime'], '--pool': ['threads', 'forks', 'vmThreads', 'vmForks'] },
};

export const JEST: RunnerSpec = {
  flags: ['--ci', '--silent', '--verbose', '--coverage', '--runInBand', '-i', '--passWithNoTests', '--detectOpenHandles', '--forceExit', '--listTests', '--onlyChanged', '-o', '--json', '--no-cache', '--colors', '--no-colors', '--findRelatedTests', '--logHeapUsage', '--noStackTrace', '--useStderr', '--errorOnDeprecated', '--expand', '-e', '--lastCommit', '--randomize', '--showSeed', '--no-watchman', '--detectLeaks'],
  optional: ['--bail', '--watchAll', '--watch', '--ci'],
  values: { ...text('-t', '--testNamePattern', '--testPathPattern', '--testPathIgnorePatterns', '--maxWorkers', '-w', '--changedSince', '--selectProjects', '--shard', '--testTimeout', '--seed', '--collectCoverageFrom', '--coverageReporters', '--reporters', '--testEnvironment'), '--outputFile': 'write', '--config': 'code', '-c': 'code', '--setupFiles': 'code', '--setupFilesAfterEnv': 'code', '--testResultsProcessor': 'code', '--globalSetup': 'code', '--globalTeardown': 'code', '--transform': 'code', '--rootDir': 'code', '--roots': 'code', '--cacheDirectory': 'write', '--coverageDirectory': 'write', '--testRunner': 'code', '--resolver': 'code' },
  rewrites: ['-u', '--updateSnapshot', '--init'],
  prints: ['-v', '--version', '-h', '--help'],
  builtins: { '--reporters': ['default', 'summary', 'github-actions', 'verbose'], '--testEnvironment': ['node', 'jsdom'], '--coverageReporters': ['text', 'text-summary', 'lcov', 'json', 'json-summary', 'clover', 'html', 'cobertura', 'none'] },
};

export const MOCHA: RunnerSpec = {
  flags: ['--bail', '-b', '--invert', '-i', '--recursive', '--exit', '--parallel', '-p', '--check-leaks', '--full-trace', '--forbid-only', '--forbid-pending', '--sort', '-S', '--no-colors', '--colors', '-c', '-C', '--diff', '--inline-diffs', '--dry-run', '--fail-zero', '--list-files', '--no-exit', '--async-only', '-A'],
  values: { ...text('--grep', '-g', '--fgrep', '-f', '--timeout', '-t', '--slow', '-s', '--jobs', '-j', '--retries', '--extension', '--reporter', '-R', '--ui', '-u', '--spec', '--ignore', '--exclude'), '--require': 'code', '-r': 'code', '--config': 'code', '--file': 'code', '--reporter-option': 'write', '-O': 'write', '--reporter-options': 'write', '--node-option': 'code', '-n': 'code', '--package': 'code' },
  rewrites: ['--watch', '-w'],
  prints: ['-V', '--version', '-h', '--help'],
  builtins: { '--reporter': ['spec', 'dot', 'nyan', 'tap', 'landing', 'list', 'progress', 'json', 'json-stream', 'min', 'doc', 'markdown', 'xunit'], '-R': ['spec', 'dot', 'nyan', 'tap', 'landing', 'list', 'progress', 'json', 'json-stream', 'min', 'doc', 'markdown', 'xunit'], '--ui': ['bdd', 'tdd', 'qunit', 'exports'], '-u': ['bdd', 'tdd', 'qunit', 'exports'] },
};

export const PYTEST: RunnerSpec = {
  flags: ['-q', '-v', '-x', '-s', '-l', '--lf', '--last-failed', '--ff', '--failed-first', '--nf', '--new-first', '--sw', '--stepwise', '--stepwise-skip', '--co', '--collect-only', '--no-header', '--no-summary', '--showlocals', '--strict-markers', '--strict-config', '--strict', '--disable-warnings', '--disable-pytest-warnings', '--exitfirst', '--quiet', '--verbose', '--runxfail', '--doctest-modules', '--full-trace', '--setup-show', '--setup-only', '--setup-plan', '--fixtures', '--fixtures-per-test', '--markers', '--cov', '--no-cov', '--no-cov-on-fail', '--cache-show', '--lfnf', '--trace-config', '--continue-on-collection-errors'],
  optional: ['--durations', '--maxfail', '--cov', '--cov-report', '--import-mode', '--last-failed-no-failures', '--doctest-glob'],
  values: text('-k', '-m', '--tb', '-r', '-n', '--numprocesses', '-W', '--pythonwarnings', '--color', '--capture', '--durations-min', '--deselect', '--ignore', '--ignore-glob', '--timeout', '--dist', '--maxprocesses', '--verbosity'),
  prints: ['--version', '-V', '-h', '--help'],
  builtins: { '--cov-report': ['term', 'term-missing', 'term:skip-covered', 'term-missing:skip-covered'], '--import-mode': ['prepend', 'append', 'importlib'] },
};

/** go's flags are single-dash words (`-run X`, `-run=X`); a double dash means the same. */
const GO_TEST: RunnerSpec = {
  flags: ['-v', '-race', '-short', '-cover', '-benchmem', '-json', '-failfast', '-x', '-n', '-a', '-trimpath', '-msan', '-asan', '-fullpath'],
  values: text('-run', '-count', '-timeout', '-covermode', '-coverpkg', '-bench', '-benchtime', '-cpu', '-p', '-parallel', '-tags', '-list', '-skip', '-shuffle', '-vet', '-ldflags', '-gcflags', '-asmflags', '-buildvcs', '-mod'),
};
const GO_VET: RunnerSpec = { flags: ['-json', '-v', '-x', '-n', '-a', '-trimpath'], values: text('-tags', '-c', '-mod') };

/** Reads go's flags: each word `-name` or `--name`, with `=value` or the next word for value flags. */
function goRun(spec: RunnerSpec): Judge {
  return (args, context, name) => {
    const normalized = args.map((a) => (a.value?.startsWith('--') ? { ...a, value: a.value.slice(1), template: a.template.slice(1) } : a));
    const concerns: string[] = [];
    const valueFlags = new Set(Object.keys(spec.values as Record<string, string>));
    for (let i = 0; i < normalized.length; i++) {
      const text = normalized[i]!.value;
      if (text === null) continue;
      if (!text.startsWith('-') || text === '-') continue;
      const flag = text.split('=')[0]!;
      if (spec.flags!.includes(flag) && !text.includes('=')) continue;
      if (spec.flags!.includes(flag) && /=(true|false)$/.test(text)) continue;
      if (valueFlags.has(flag)) {
        if (flag === '-mod' && !/^(-mod=)?(readonly|vendor)$/.test(text.includes('=') ? text : `-mod=${normalized[i + 1]?.value}`)) concerns.push('`-mod` may rewrite go.mod');
        if (!text.includes('=')) i++;
        continue;
      }
      concerns.push(`\`${name}\` is given an option assistant does not know or that runs or writes something (${text})`);
    }
    const verdict = tests(context, `\`${name}\``);
    return concerns.length ? { ...verdict, concerns } : verdict;
  };
}
export const goTest = goRun(GO_TEST);
export const goVet = goRun(GO_VET);

const CARGO_COMMON = {
  flags: ['--release', '-r', '--all', '--workspace', '--lib', '--bins', '--tests', '--benches', '--examples', '--all-targets', '--doc', '--all-features', '--no-default-features', '-q', '--quiet', '-v', '-vv', '--verbose', '--no-run', '--no-fail-fast', '--locked', '--frozen', '--offline', '--keep-going', '--future-incompat-report', '--ignore-rust-version', '--timings'],
  values: text('-p', '--package', '--bin', '--test', '--bench', '--example', '--features', '-F', '--jobs', '-j', '--color', '--message-format', '--profile', '--target', '--exclude'),
};
export const CARGO_TEST: RunnerSpec = {
  ...CARGO_COMMON,
  prints: ['-h', '--help'],
  passthrough: { flags: ['--nocapture', '--no-capture', '--ignored', '--include-ignored', '--exact', '-q', '--quiet', '--show-output', '--list', '--test', '--bench', '--force-run-in-process'], values: text('--test-threads', '--skip', '--color', '--format') },
};
export const CARGO_CLIPPY: RunnerSpec = {
  ...CARGO_COMMON,
  rewrites: ['--fix', '--allow-dirty', '--allow-staged'],
  prints: ['-h', '--help', '-V', '--version'],
  passthrough: { flags: [], values: text('-D', '-W', '-A', '-F', '--deny', '--warn', '--allow', '--forbid', '--cap-lints') },
};
export const CARGO_FMT: RunnerSpec = { flags: ['--all', '--check', '-q', '--quiet', '-v', '--verbose'], values: text('-p', '--package', '--message-format'), checkOnly: ['--check'], passthrough: { flags: ['--check', '-q', '--quiet', '-v', '--verbose', '-l', '--files-with-diff'], values: text('--edition', '--color', '--emit') } };

export const ESLINT: RunnerSpec = {
  flags: ['--quiet', '--no-eslintrc', '--no-config-lookup', '--no-ignore', '--cache', '--color', '--no-color', '--no-inline-config', '--no-error-on-unmatched-pattern', '--pass-on-no-patterns', '--debug', '--stats', '--no-warn-ignored', '--exit-on-fatal-error', '--report-unused-disable-directives', '--fix-dry-run'],
  values: { ...text('--ext', '--max-warnings', '--ignore-pattern', '--format', '-f', '--report-unused-disable-directives-severity', '--env', '--global', '--parser-options', '--rule', '--cache-strategy', '--print-config', '--concurrency'), '--config': 'code', '-c': 'code', '--rulesdir': 'code', '--plugin': 'code', '--resolve-plugins-relative-to': 'code', '--parser': 'code', '--cache-location': 'write', '--cache-file': 'write', '-o': 'write', '--output-file': 'write', '--ignore-path': 'read' },
  rewrites: ['--fix', '--fix-type', '--init'],
  prints: ['-v', '--version', '-h', '--help', '--env-info'],
  builtins: { '--format': ['stylish', 'json', 'json-with-metadata', 'compact', 'unix', 'visualstudio', 'tap', 'checkstyle', 'html', 'junit', 'jslint-xml'], '-f': ['stylish', 'json', 'json-with-metadata', 'compact', 'unix', 'visualstudio', 'tap', 'checkstyle', 'html', 'junit', 'jslint-xml'] },
};

export const PRETTIER: RunnerSpec = {
  flags: ['--check', '-c', '--list-different', '-l', '--no-config', '--no-editorconfig', '--ignore-unknown', '-u', '--no-color', '--color', '--use-tabs', '--semi', '--no-semi', '--single-quote', '--jsx-single-quote', '--bracket-spacing', '--no-bracket-spacing', '--bracket-same-line', '--no-error-on-unmatched-pattern', '--cache', '--single-attribute-per-line', '--vue-indent-script-and-style', '--experimental-ternaries', '--debug-check'],
  values: { ...text('--log-level', '--loglevel', '--end-of-line', '--tab-width', '--quote-props', '--trailing-comma', '--arrow-parens', '--print-width', '--prose-wrap', '--parser', '--cache-strategy', '--html-whitespace-sensitivity', '--embedded-language-formatting', '--object-wrap', '--stdin-filepath'), '--plugin': 'code', '--config': 'code', '--cache-location': 'write', '--ignore-path': 'read', '--config-precedence': 'text' },
  rewrites: ['--write', '-w'],
  prints: ['-v', '--version', '-h', '--help'],
};

export const TSC: RunnerSpec = {
  flags: ['--noEmit', '--strict', '--skipLibCheck', '--noUnusedLocals', '--noUnusedParameters', '--noImplicitAny', '--strictNullChecks', '--esModuleInterop', '--allowJs', '--checkJs', '--resolveJsonModule', '--isolatedModules', '--listFiles', '--listFilesOnly', '--extendedDiagnostics', '--diagnostics', '--traceResolution', '--explainFiles', '--showConfig', '--noErrorTruncation', '--exactOptionalPropertyTypes', '--noImplicitReturns', '--noFallthroughCasesInSwitch', '--noUncheckedIndexedAccess', '--noImplicitOverride', '--allowSyntheticDefaultImports', '--forceConsistentCasingInFileNames', '--verbatimModuleSyntax', '--noPropertyAccessFromIndexSignature', '--noImplicitThis', '--useUnknownInCatchVariables', '--strictFunctionTypes', '--strictPropertyInitialization', '--strictBindCallApply', '--allowImportingTsExtensions', '--experimentalDecorators', '--emitDecoratorMetadata'],
  optional: ['--pretty'],
  values: { ...text('--target', '-t', '--module', '-m', '--moduleResolution', '--jsx', '--lib', '--types', '--locale', '--maxNodeModuleJsDepth'), '-p': 'read', '--project': 'read' },
  rewrites: ['--build', '-b', '--watch', '-w', '--init', '--incremental', '-i', '--tsBuildInfoFile', '--generateTrace', '--outDir', '--outFile', '--declarationDir', '--composite'],
  checkOnly: ['--noEmit'],
  prints: ['-v', '--version', '-h', '--help', '--all'],
};

export const FLAKE8: RunnerSpec = {
  flags: ['--count', '--statistics', '--show-source', '--no-show-source', '-q', '--quiet', '-v', '--verbose', '--exit-zero', '--doctests', '--isolated', '--disable-noqa', '--benchmark'],
  values: { ...text('--select', '--ignore', '--extend-ignore', '--extend-select', '--max-line-length', '--max-doc-length', '--max-complexity', '--exclude', '--extend-exclude', '--per-file-ignores', '--format', '--jobs', '-j', '--color', '--filename', '--hang-closing', '--indent-size'), '--output-file': 'write', '--append-config': 'code', '--config': 'code' },
  prints: ['--version', '-h', '--help'],
};
export const PYLINT: RunnerSpec = {
  flags: ['--errors-only', '-E', '--exit-zero', '-v', '--verbose', '--disable-all'],
  values: { ...text('--disable', '-d', '--enable', '-e', '--output-format', '-f', '-j', '--jobs', '--score', '-s', '--reports', '-r', '--fail-under', '--max-line-length', '--recursive', '--ignore', '--ignore-patterns', '--py-version', '--fail-on', '--msg-template'), '--output': 'write', '--load-plugins': 'code', '--rcfile': 'code', '--init-hook': 'code' },
  prints: ['--version', '-h', '--help', '--long-help'],
  builtins: { '--output-format': ['text', 'parseable', 'colorized', 'json', 'json2', 'msvs', 'github'], '-f': ['text', 'parseable', 'colorized', 'json', 'json2', 'msvs', 'github'] },
};
export const MYPY: RunnerSpec = {
  flags: ['--strict', '--ignore-missing-imports', '--no-error-summary', '--show-error-codes', '--hide-error-codes', '--pretty', '--check-untyped-defs', '--disallow-untyped-defs', '--disallow-incomplete-defs', '--warn-unused-ignores', '--warn-redundant-casts', '--warn-return-any', '--show-column-numbers', '--no-color-output', '--explicit-package-bases', '--namespace-packages', '--non-interactive', '--hide-error-context', '--show-traceback', '--allow-redefinition', '--disallow-any-generics', '--no-implicit-optional', '--strict-optional', '-v', '--verbose', '--no-incremental', '--show-error-context', '--no-site-packages', '--show-absolute-path', '--warn-unreachable', '--no-warn-no-return'],
  values: { ...text('--python-version', '--follow-imports', '-p', '--package', '-m', '--module', '--exclude', '--platform', '--disable-error-code', '--enable-error-code', '-c', '--command'), '--config-file': 'code', '--cache-dir': 'write', '--junit-xml': 'write', '--html-report': 'write', '--txt-report': 'write', '--xml-report': 'write', '--linecount-report': 'write', '--any-exprs-report': 'write', '--cobertura-xml-report': 'write', '--lineprecision-report': 'write', '--linecoverage-report': 'write', '--shadow-file': 'code', '--python-executable': 'code' },
  rewrites: ['--install-types'],
  prints: ['-V', '--version', '-h', '--help'],
};
export const PYRIGHT: RunnerSpec = {
  flags: ['--outputjson', '--verbose', '--stats', '--warnings', '--dependencies', '--skipunannotated', '--ignoreexternal'],
  values: { ...text('--level', '--pythonversion', '--pythonplatform', '--threads'), '--project': 'read', '-p': 'read', '--pythonpath': 'code', '--venvpath': 'code', '-v': 'code' },
  rewrites: ['--writebaseline', '--watch', '-w', '--createstub'],
  prints: ['--version', '-h', '--help'],
};
export const RUFF_CHECK: RunnerSpec = {
  flags: ['--statistics', '--show-fixes', '--no-show-fixes', '--no-fix', '--diff', '--exit-zero', '--exit-non-zero-on-fix', '-q', '--quiet', '-v', '--verbose', '-s', '--silent', '--no-cache', '--respect-gitignore', '--no-respect-gitignore', '--preview', '--no-preview', '--isolated', '--show-files', '--show-settings', '--force-exclude', '--no-force-exclude'],
  values: { ...text('--select', '--ignore', '--extend-select', '--extend-ignore', '--output-format', '--target-version', '--line-length', '--exclude', '--extend-exclude', '--per-file-ignores', '--fixable', '--unfixable', '--stdin-filename'), '--output-file': 'write', '-o': 'write', '--config': 'code', '--cache-dir': 'write' },
  rewrites: ['--fix', '--unsafe-fixes', '--add-noqa', '--watch', '-w'],
  prints: ['-h', '--help'],
};
export const RUFF_FORMAT: RunnerSpec = { ...RUFF_CHECK, checkOnly: ['--check', '--diff'], flags: [...RUFF_CHECK.flags!, '--check'] };
export const SHELLCHECK: RunnerSpec = {
  flags: ['-x', '--external-sources', '-a', '--check-sourced', '--norc', '--list-optional'],
  values: { ...text('-s', '--shell', '-S', '--severity', '-e', '--exclude', '-i', '--include', '-f', '--format', '-C', '--color', '-o', '--enable', '-W', '--wiki-link-count'), '-P': 'read', '--source-path': 'read', '--rcfile': 'code' },
  prints: ['-V', '--version', '-h', '--help'],
};
export const HADOLINT: RunnerSpec = {
  flags: ['--no-fail', '--no-color', '--strict-labels', '--disable-ignore-pragma'],
  values: { ...text('--ignore', '-t', '--failure-threshold', '-f', '--format', '--trusted-registry', '--error', '--warning', '--info', '--style'), '-c': 'code', '--config': 'code' },
  prints: ['-v', '--version', '-h', '--help'],
};
export const RUBOCOP: RunnerSpec = {
  flags: ['-D', '--display-cop-names', '-E', '--extra-details', '-P', '--parallel', '-l', '--lint', '--no-color', '--force-exclusion', '--display-only-fail-level-offenses', '-L', '--list-target-files', '--stderr', '-S', '--display-style-guide'],
  values: { ...text('--format', '-f', '--fail-level', '--only', '--except', '--cache'), '-o': 'write', '--out': 'write', '-r': 'code', '--require': 'code', '-c': 'code', '--config': 'code', '--plugin': 'code', '--cache-root': 'write' },
  rewrites: ['-a', '-A', '--autocorrect', '--autocorrect-all', '--auto-correct', '--auto-correct-all', '-x', '--fix-layout', '--auto-gen-config'],
  prints: ['-v', '--version', '-V', '-h', '--help'],
};
export const RSPEC: RunnerSpec = {
  flags: ['--only-failures', '--next-failure', '--dry-run', '--backtrace', '-b', '--color', '--no-color', '--force-color', '--warnings', '-w'],
  optional: ['--fail-fast', '--profile', '-p'],
  values: { ...text('--format', '-f', '--tag', '-t', '--example', '-e', '--order', '--seed', '--pattern', '-P', '--exclude-pattern', '--example-matches', '-E'), '-r': 'code', '--require': 'code', '-o': 'write', '--out': 'write', '--options': 'code', '-I': 'code', '--default-path': 'code' },
  rewrites: ['--init'],
  prints: ['-v', '--version', '-h', '--help'],
  builtins: { '--format': ['progress', 'p', 'documentation', 'd', 'html', 'h', 'json', 'j', 'failures', 'f'], '-f': ['progress', 'p', 'documentation', 'd', 'html', 'h', 'json', 'j', 'failures', 'f'] },
};
export const PHPUNIT: RunnerSpec = {
  flags: ['--stop-on-failure', '--stop-on-error', '--testdox', '--no-coverage', '--no-progress', '--no-output', '-v', '--verbose', '--debug', '--fail-on-warning', '--fail-on-risky', '--list-tests', '--list-groups', '--list-suites', '--no-configuration', '--display-deprecations', '--display-warnings', '--display-notices', '--display-errors', '--display-incomplete', '--display-skipped', '--no-results'],
  optional: ['--colors'],
  values: { ...text('--filter', '--testsuite', '--group', '--exclude-group', '--order-by', '--random-order-seed'), '-c': 'code', '--configuration': 'code', '--bootstrap': 'code', '--log-junit': 'write', '--log-teamcity': 'write', '--testdox-html': 'write', '--testdox-text': 'write', '--coverage-html': 'write', '--coverage-clover': 'write', '--coverage-text': 'write', '--include-path': 'code', '-d': 'code', '--extension': 'code', '--cache-result-file': 'write', '--cache-directory': 'write' },
  rewrites: ['--generate-configuration', '--migrate-configuration', '--generate-baseline'],
  prints: ['--version', '-h', '--help'],
};
export const GOLANGCI: RunnerSpec = {
  flags: ['--enable-all', '--disable-all', '--fast', '--fast-only', '--new', '--tests', '--print-issued-lines', '--print-linter-name', '--sort-results', '-v', '--verbose', '--allow-parallel-runners', '--exclude-use-default', '--whole-files', '--uniq-by-line', '--show-stats'],
  values: { ...text('--timeout', '--enable', '-E', '--disable', '-D', '--new-from-rev', '--build-tags', '--skip-dirs', '--skip-files', '--concurrency', '-j', '--out-format', '--color', '--max-issues-per-linter', '--max-same-issues', '--issues-exit-code', '--exclude', '-e', '--presets', '-p', '--path-prefix', '--default'), '-c': 'code', '--config': 'code' },
  rewrites: ['--fix'],
  prints: ['--version', '-h', '--help'],
  builtins: { '--out-format': ['colored-line-number', 'line-number', 'json', 'tab', 'colored-tab', 'checkstyle', 'code-climate', 'html', 'junit-xml', 'junit-xml-extended', 'github-actions', 'teamcity', 'sarif'] },
};
export const BIOME: RunnerSpec = {
  flags: ['--error-on-warnings', '--no-errors-on-unmatched', '--verbose', '--skip-errors', '--changed', '--staged'],
  values: { ...text('--formatter-enabled', '--linter-enabled', '--organize-imports-enabled', '--assist-enabled', '--reporter', '--max-diagnostics', '--diagnostic-level', '--colors', '--since', '--files-ignore-unknown', '--vcs-enabled', '--vcs-use-ignore-file', '--log-level', '--only', '--skip', '--log-kind'), '--config-path': 'code', '--log-file': 'write', '--log-path': 'write' },
  rewrites: ['--write', '--apply', '--apply-unsafe', '--fix', '--unsafe'],
  prints: ['--version', '-h', '--help'],
};
export const BLACK: RunnerSpec = {
  flags: ['--check', '--diff', '-q', '--quiet', '-v', '--verbose', '--color', '--no-color', '--skip-string-normalization', '-S', '--skip-magic-trailing-comma', '-C', '--preview', '--fast', '--safe', '--pyi', '--ipynb'],
  values: { ...text('-l', '--line-length', '--target-version', '-t', '--include', '--exclude', '--extend-exclude', '--force-exclude', '--required-version', '--workers', '-W', '--python-cell-magics'), '--config': 'code' },
  checkOnly: ['--check', '--diff'],
  prints: ['--version', '-h', '--help'],
};
export const ISORT: RunnerSpec = {
  flags: ['--check', '--check-only', '-c', '--diff', '-q', '--quiet', '-v', '--verbose', '--only-modified', '--filter-files', '--color', '--float-to-top', '--show-files'],
  values: { ...text('--profile', '-l', '--line-length', '--skip', '-s', '--skip-glob', '--src'), '--sp': 'code', '--settings-path': 'code', '--settings-file': 'code' },
  checkOnly: ['--check', '--check-only', '-c', '--diff'],
  prints: ['--version', '-V', '-h', '--help'],
};
export const GOFMT: RunnerSpec = { flags: ['-l', '-d', '-s', '-e'], values: text('-r'), rewrites: ['-w'], prints: ['-h', '--help'] };
export const NODE_TEST: RunnerSpec = {
  flags: ['--test', '--test-only', '--experimental-test-coverage', '--no-warnings', '--enable-source-maps', '--experimental-strip-types', '--experimental-vm-modules', '--test-force-exit', '--experimental-test-module-mocks', '--no-experimental-strip-types'],
  values: { ...text('--test-name-pattern', '--test-concurrency', '--test-timeout', '--test-skip-pattern', '--test-shard', '--test-reporter', '--test-coverage-include', '--test-coverage-exclude'), '--test-reporter-destination': 'write' },
  rewrites: ['--test-update-snapshots', '--watch'],
  builtins: { '--test-reporter': ['spec', 'tap', 'dot', 'junit', 'lcov'] },
};
export const BUN_TEST: RunnerSpec = {
  flags: ['--only', '--todo', '--coverage', '--bail'],
  optional: ['--bail'],
  values: { ...text('--timeout', '-t', '--test-name-pattern', '--rerun-each'), '--preload': 'code', '-r': 'code', '--coverage-dir': 'write' },
  rewrites: ['-u', '--update-snapshots', '--watch'],
};
export const DENO_CHECK: RunnerSpec = {
  flags: ['--quiet', '-q', '--json', '--compact', '--no-check', '--doc', '--parallel', '--check', '--all', '--unstable'],
  optional: ['--fail-fast'],
  values: text('--filter', '--ext'),
};
