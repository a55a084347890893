import type { JsonSchema, PermissionMode } from '../../../core/index.js';

/** The `permissions` section of the configuration. */
export interface PermissionsOptions {
  /** The mode a session starts in (`--permission-mode` overrides it). */
  mode: PermissionMode;
  /** Rules for calls that run without asking: `Bash(npm test)`, `Edit(src/**)`, `mcp__github__*`. */
  allow: string[];
  /** Rules for calls that always ask. */
  ask: string[];
  /** Rules for calls that never run. deny beats ask beats allow. */
  deny: string[];
  secrets: {
    /** More secret file patterns (matched case-insensitively; no slash = any directory). */
    extra: string[];
    /** Files that look secret but are not. */
    allow: string[];
  };
  /** Judge the command sudo/doas runs instead of refusing it outright (it still always asks). */
  allowSudo: boolean;
  /** Test and lint runs (`npm test`, `pytest`, `cargo test`) are safe in default mode. */
  trustTestCommands: boolean;
  /** Deprecated, no effect: decisions and approvals are in the session's audit log (the `audit` section). Kept so configs that set it stay valid. */
  audit?: boolean;
  /** Where "always for this project" answers are kept, relative to the project root. */
  localSettings: string;
  /** More directories the tools may use as if inside the project (`--add-dir`); absolute once loaded. */
  additionalDirectories: string[];
}

/** A rule: a tool name or glob, optionally with a specifier in parentheses. */
export const RULE_PATTERN = '^[A-Za-z0-9_.*-]+(\\(.+\\))?$';

const ruleList = { type: 'array', items: { type: 'string', minLength: 1, pattern: RULE_PATTERN }, default: [] };

/** JSON Schema of the options (defaults filled in by the loader). */
export const optionsSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    mode: { enum: ['default', 'acceptEdits', 'plan', 'bypass'], default: 'default' },
    allow: ruleList,
    ask: ruleList,
    deny: ruleList,
    secrets: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        extra: { type: 'array', items: { type: 'string', minLength: 1 }, default: [] },
        allow: { type: 'array', items: { type: 'string', minLength: 1 }, default: ['.env.example'] },
      },
    },
    allowSudo: { type: 'boolean', default: false },
    trustTestCommands: { type: 'boolean', default: true },
    audit: { type: 'boolean' },
    localSettings: { type: 'string', minLength: 1, default: '.assistant/settings.local.json' },
    additionalDirectories: { type: 'array', items: { type: 'string', minLength: 1 }, default: [] },
  },
};
