import { join } from 'node:path';
import picomatch from 'picomatch';
import type { PermissionRequest } from '../../../../core/index.js';
import type { PathFact, RequestFacts } from '../facts.js';
import { isSafeCommand } from '../safety.js';
import type { ShellCommand } from '../shell/types.js';
import { hostInDomain, ruleDomain, urlHost } from './domain.js';
import type { Rule } from './parse.js';

/** Where rules are matched. */
export interface MatchContext {
  request: PermissionRequest;
  facts: RequestFacts;
  /** The project root, symlinks resolved. */
  root: string;
  home: string | null;
  trustTests: boolean;
}

/** A rule names the tool, or `Read`/`Edit` name its category (Read covers Grep/Glob/LS, Edit covers Write/MultiEdit). */
function appliesToTool(rule: Rule, request: PermissionRequest): boolean {
  if (rule.matchesToolName(request.tool)) return true;
  return (rule.tool === 'Read' && request.category === 'read') || (rule.tool === 'Edit' && request.category === 'edit');
}

/** Splits a rule's command pattern into words, honouring quotes. */
function words(pattern: string): string[] {
  const out: string[] = [];
  for (const m of pattern.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

function wordMatches(pattern: string, value: string): boolean {
  if (!pattern.includes('*')) return pattern === value;
  const regex = new RegExp('^' + pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$', 's');
  return regex.test(value);
}

const normalize = (text: string) => text.trim().replace(/\s+/g, ' ');

/**
 * `Bash(npm test)` matches exactly `npm test`; `Bash(npm run test:*)` matches `npm run test`,
 * anything after it, and `npm run test:unit`; `*` inside a word is a wildcard. The command is
 * matched as parsed: `\rm`, `/bin/rm`, `command rm` and `env X=1 rm` are all `rm`.
 */
export function commandMatches(rule: Rule, command: ShellCommand, wholeCommand: string): boolean {
  const spec = rule.specifier;
  if (spec === undefined || spec === '*') return true;
  if (normalize(spec) === normalize(wholeCommand)) return true;
  let prefix = spec.endsWith(':*');
  const pattern = words(prefix ? spec.slice(0, -2) : spec);
  if (pattern[pattern.length - 1] === '*') {
    prefix = true;
    pattern.pop();
  }
  if (!pattern.length) return prefix;
  const candidates = [[command.name, ...command.effective.slice(1).map((a) => a.value)], command.argv.map((a) => a.value)];
  return candidates.some((argv) => {
    if (argv.length < pattern.length || (!prefix && argv.length !== pattern.length)) return false;
    return pattern.every((word, i) => {
      const value = argv[i];
      if (value === null || value === undefined) return false;
      if (wordMatches(word, value)) return true;
      return prefix && i === pattern.length - 1 && value.startsWith(word + ':');
    });
  });
}

/** Makes a path pattern absolute: `src/**` is in the project, `~/x` in the home, `/x` and `//x` absolute. */
function absolutePattern(pattern: string, context: MatchContext): string | undefined {
  if (pattern.startsWith('~/')) return context.home === null ? undefined : join(context.home, pattern.slice(2));
  if (pattern.startsWith('//')) return pattern.slice(1);
  if (pattern.startsWith('/')) return pattern;
  const relative = pattern.startsWith('./') ? pattern.slice(2) : pattern;
  return join(context.root, relative.includes('/') ? relative : `**/${relative}`);
}

const matcherCache = new Map<string, (path: string) => boolean>();

/** `Read(src/**)` against a located path (its real and written-absolute forms). Deny and ask rules ignore case. */
export function pathMatches(rule: Rule, fact: PathFact, context: MatchContext): boolean {
  if (rule.specifier === undefined) return true;
  // A hard link or a deceptive name is not the path it claims to be: an allow rule written for
  // that path does not vouch for it (deny and ask rules still match it).
  if (rule.kind === 'allow' && fact.concern) return false;
  const pattern = absolutePattern(rule.specifier, context);
  if (!pattern || !fact.real) return false;
  const key = `${pattern}\0${rule.kind}`;
  let matcher = matcherCache.get(key);
  if (!matcher) {
    const options = { dot: true, nocase: rule.kind !== 'allow' };
    const full = picomatch(pattern, options);
    // `dir/**` also names `dir` itself.
    const self = pattern.endsWith('/**') ? picomatch(pattern.slice(0, -3), options) : () => false;
    matcher = (path) => full(path) || self(path);
    matcherCache.set(key, matcher);
  }
  return [fact.real, fact.absolute].some((p) => p !== undefined && matcher!(p));
}

function domainMatches(rule: Rule, request: PermissionRequest): boolean {
  const spec = rule.specifier ?? '';
  if (!spec.startsWith('domain:')) return false;
  const domain = ruleDomain(spec.slice(7));
  const host = urlHost(request.input.url);
  return domain !== undefined && host !== undefined && hostInDomain(host, domain);
}

/** Path facts of the tool's own paths (not found inside a shell command). */
const ownPaths = (facts: RequestFacts) => [...facts.reads, ...facts.writes].filter((f) => !f.command);

/** Shell path effects a Read or Edit rule speaks for. */
function shellPathsFor(rule: Rule, facts: RequestFacts): PathFact[] {
  if (rule.tool === 'Read') return facts.reads.filter((f) => f.command);
  if (rule.tool === 'Edit') return facts.writes.filter((f) => f.command);
  return [];
}

/** deny/ask semantics: the first rule that matches any part of the call. */
export function firstMatch(rules: readonly Rule[], context: MatchContext): Rule | undefined {
  const { request, facts } = context;
  const commands = facts.shell?.commands ?? [];
  for (const rule of rules) {
    if (appliesToTool(rule, request)) {
      if (rule.specifier === undefined) return rule;
      if (facts.shell && commands.some((c) => commandMatches(rule, c, facts.shell!.source))) return rule;
      if (ownPaths(facts).some((f) => pathMatches(rule, f, context))) return rule;
      if (domainMatches(rule, request)) return rule;
    }
    if (rule.specifier !== undefined && shellPathsFor(rule, facts).some((f) => pathMatches(rule, f, context))) return rule;
  }
  return undefined;
}

/**
 * allow semantics: every part of the call must be covered, by a rule or by being safe on its own.
 * Returns the (first) rule that made the difference, or undefined.
 */
export function coveringRule(rules: readonly Rule[], context: MatchContext): Rule | undefined {
  const { request, facts } = context;
  const applicable = rules.filter((r) => appliesToTool(r, request));
  const bare = applicable.find((r) => r.specifier === undefined);
  if (bare) return bare;
  if (!facts.shell) {
    const own = ownPaths(facts);
    if (!own.length) return applicable.find((r) => domainMatches(r, request));
    let used: Rule | undefined;
    for (const fact of own) {
      const rule = applicable.find((r) => pathMatches(r, fact, context));
      if (!rule) return undefined;
      used ??= rule;
    }
    return used;
  }
  const shell = facts.shell;
  if (shell.concerns.length) return undefined;
  const matched = new Map<ShellCommand, Rule>();
  for (const command of shell.commands) {
    const rule = applicable.find((r) => commandMatches(r, command, shell.source));
    if (rule) matched.set(command, rule);
    // Unmatched commands must be safe on their own; what they write is checked against Edit rules below.
    else if (!isSafeCommand(command, context.trustTests, true)) return undefined;
  }
  let used: Rule | undefined = matched.values().next().value;
  const pathRule = (fact: PathFact) => rules.find((r) => r.specifier !== undefined && shellPathsFor(r, facts).includes(fact) && pathMatches(r, fact, context));
  for (const fact of facts.writes) {
    if (!fact.command) continue;
    if (fact.command && matched.has(fact.command) && fact.inside && !fact.protected) continue;
    const rule = pathRule(fact);
    if (!rule) return undefined;
    used ??= rule;
  }
  for (const fact of facts.reads) {
    if (!fact.command || fact.inside) continue;
    if (matched.has(fact.command) && fact.real) continue;
    const rule = pathRule(fact);
    if (!rule) return undefined;
    used ??= rule;
  }
  return used;
}
