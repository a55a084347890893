import picomatch from 'picomatch';
import { PermissionError } from '../../../../core/index.js';
import { PERMISSION_ERRORS } from '../../errors.js';
import { ruleDomain } from './domain.js';
import { mcpRuleMatcher } from './mcp.js';

/** Which list a rule is in. */
export type RuleKind = 'allow' | 'ask' | 'deny';

/** A parsed permission rule such as `Bash(npm run test:*)`, `Edit(docs/**)`, `mcp__github__*` or `mcp__github` (every tool of that server). */
export interface Rule {
  /** As written. */
  text: string;
  kind: RuleKind;
  /** The tool name or glob before the parentheses. */
  tool: string;
  matchesToolName: (name: string) => boolean;
  /** What is inside the parentheses; undefined for a bare tool name (every call of the tool). */
  specifier?: string;
  /** Where the rule came from: a config file, the local settings file, "this session". */
  source: string;
}

const RULE = /^([A-Za-z0-9_.*-]+)(?:\((.*)\))?$/s;

/** Parses one rule; throws ASSISTANT_PERMISSION_RULE_INVALID naming the rule and where it came from. */
export function parseRule(text: string, kind: RuleKind, source: string): Rule {
  const trimmed = typeof text === 'string' ? text.trim() : '';
  const match = RULE.exec(trimmed);
  const specifier = match?.[2]?.trim();
  if (!match || specifier === '')
    throw new PermissionError(
      PERMISSION_ERRORS.ASSISTANT_PERMISSION_RULE_INVALID,
      `${source}: the ${kind} rule ${JSON.stringify(text)} is not a rule: write ToolName or ToolName(specifier), e.g. Bash(npm test), Bash(npm run test:*), Read(src/**), Edit(docs/**) or mcp__github__*`,
      { plugin: 'permissions', file: source.startsWith('/') ? source : undefined },
    );
  // A domain rule that names no host would never match: refused, so a deny rule never fails open.
  if (specifier?.startsWith('domain:') && ruleDomain(specifier.slice(7)) === undefined)
    throw new PermissionError(
      PERMISSION_ERRORS.ASSISTANT_PERMISSION_RULE_INVALID,
      `${source}: the ${kind} rule ${JSON.stringify(text)} names no host: write domain:<host>, e.g. WebFetch(domain:example.com), without a scheme, port, path or wildcard (it covers the host and its subdomains)`,
      { plugin: 'permissions', file: source.startsWith('/') ? source : undefined },
    );
  const tool = match[1]!;
  // `mcp__<server>` with no tool part names every tool of that MCP server.
  const matchesToolName = mcpRuleMatcher(tool, kind) ?? (tool.includes('*') ? picomatch(tool) : (name: string) => name === tool);
  return { text: trimmed, kind, tool, matchesToolName, ...(specifier ? { specifier } : {}), source };
}

/** Parses a list of rules of one kind. */
export function parseRules(texts: readonly string[], kind: RuleKind, source: string): Rule[] {
  return texts.map((text) => parseRule(text, kind, source));
}
