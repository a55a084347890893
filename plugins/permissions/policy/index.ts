/**
 * The shared policy of the permissions package: the pure code its layer plugins (guard/, rules/, mode/,
 * classifier/, grants/, ask/, each a plugin of its own) share, and the per-kernel policy state they
 * judge with. One package shipping several plugins, as a third party may: the policy stays out of core.
 * This barrel loads the whole engine: the plugin entries (index.ts files) import light modules
 * (shared.ts, lazy.ts, policy.ts, options.ts) and reach the rest with `import()` on first use.
 */
export { createPolicy, type Policy } from './policy.js';
export { publishPolicy, policyOf, permissionTap, type PolicyLayer } from './shared.js';
export { optionsSchema, RULE_PATTERN, type PermissionsOptions } from './options.js';
export { LocalSettings, type LocalRules } from './local-settings.js';
export { gatherFacts, type FactSettings, type PathFact, type RequestFacts } from './facts.js';
export { isReadOnlyScript, isSafeCommand, whyUnsafe } from './safety.js';
export { suggestRule } from './suggest.js';
export { coveringRule, firstMatch, type MatchContext } from './rules/match.js';
export { parseRule, parseRules, type Rule, type RuleKind } from './rules/parse.js';
export { isWithin, realRoot } from './paths/resolve.js';
export { analyzeShell, analyzeShellSync } from './shell/analyze.js';
export { shellParserReady } from './shell/parser.js';
export type { ShellAnalysis, ShellCommand } from './shell/types.js';
