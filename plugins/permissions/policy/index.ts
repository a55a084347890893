/**
 * The shared policy of the permissions package: the pure code its layer plugins (guard/, rules/, mode/,
 * classifier/, grants/, ask/, each a plugin of its own) share, and the per-kernel policy state they
 * judge with. One package shipping several plugins, as a third party may: the policy stays out of core.
 */
export { createPolicy, type Policy } from './policy.js';
export { publishPolicy, policyOf, permissionTap, type PolicyLayer } from './shared.js';
export { optionsSchema, RULE_PATTERN, type PermissionsOptions } from './options.js';
export { LocalSettings, type LocalRules } from './local-settings.js';
export { gatherFacts, realRoot, type FactSettings, type PathFact, type RequestFacts } from './facts.js';
export { isReadOnlyScript, isSafeCommand, whyUnsafe } from './safety.js';
export { suggestRule } from './suggest.js';
export { coveringRule, firstMatch, type MatchContext } from './rules/match.js';
export { parseRule, parseRules, type Rule, type RuleKind } from './rules/parse.js';
export { isWithin } from './paths/resolve.js';
export { analyzeShell, analyzeShellSync } from './shell/analyze.js';
export { shellParserReady } from './shell/parser.js';
export type { ShellAnalysis, ShellCommand } from './shell/types.js';
