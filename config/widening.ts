import type { AssistantConfig } from '../core/types/config.js';

/** A setting of a project layer that needs the user's trust, and its value. */
export interface WideningSetting {
  /** JSON pointer in the file: `/permissions/mode`. */
  pointer: string;
  value: unknown;
}

/** A project layer split into what always applies and what waits for trust. */
export interface SplitLayer {
  kept: AssistantConfig;
  widening: WideningSetting[];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Top-level keys a project may set without trust: they change how the agent talks and shows
 * things, never what it may touch. Anything not named here (allow rules, hooks, MCP servers,
 * plugins, stores, telemetry, a key added tomorrow) waits for trust: the list fails closed.
 */
const HARMLESS = new Set(['$schema', 'context', 'ui', 'systemPrompt', 'projectMap']);

/** Modes from the strictest: a project may only move to a mode at least as strict as the one in force. */
const MODE_STRICTNESS = ['plan', 'default', 'acceptEdits', 'bypass'];
/** Sandbox modes from the strictest. */
const SANDBOX_STRICTNESS = ['required', 'auto', 'off'];

/** `value` is one of the two strictest values and no looser than `current` (no current value: the default, the second). */
const noLooser = (order: string[], value: unknown, current: unknown) => {
  const rank = order.indexOf(value as string);
  const now = order.indexOf(typeof current === 'string' ? current : order[1]!);
  return rank >= 0 && rank <= 1 && rank <= (now < 0 ? 1 : now);
};

const sandboxMode = (sandbox: AssistantConfig['sandbox']) => (typeof sandbox === 'string' ? sandbox : sandbox?.mode);

/** Per key of `permissions`: may an untrusted project set this value? Only what narrows. */
const PERMISSION_NARROWS: Record<string, (value: unknown, below: AssistantConfig) => boolean> = {
  mode: (v, below) => noLooser(MODE_STRICTNESS, v, below.permissions?.mode),
  deny: Array.isArray,
  ask: Array.isArray,
  allowSudo: (v) => v === false,
  trustTestCommands: (v) => v === false,
  audit: (v) => v === true,
};

function splitPermissions(value: unknown, below: AssistantConfig, out: SplitLayer): void {
  if (!isObject(value)) return void out.widening.push({ pointer: '/permissions', value });
  const kept: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === 'secrets' && isObject(item)) {
      // More secret patterns narrow; files declared "not secret" widen.
      const { extra, ...rest } = item;
      if (extra !== undefined) kept.secrets = { extra };
      for (const [k, v] of Object.entries(rest)) out.widening.push({ pointer: `/permissions/secrets/${k}`, value: v });
    } else if (PERMISSION_NARROWS[key]?.(item, below)) kept[key] = item;
    else out.widening.push({ pointer: `/permissions/${key}`, value: item });
  }
  if (Object.keys(kept).length) out.kept.permissions = kept;
}

/** `sandbox` narrows when it only asks for more confinement than is in force. */
function splitSandbox(value: unknown, below: AssistantConfig, out: SplitLayer): void {
  const narrows = (mode: unknown) => noLooser(SANDBOX_STRICTNESS, mode, sandboxMode(below.sandbox));
  if (typeof value === 'string') {
    if (narrows(value)) out.kept.sandbox = value as 'auto' | 'required';
    else out.widening.push({ pointer: '/sandbox', value });
    return;
  }
  if (!isObject(value)) return void out.widening.push({ pointer: '/sandbox', value });
  const kept: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if ((key === 'mode' && narrows(item)) || (key === 'network' && item === false)) kept[key] = item;
    else out.widening.push({ pointer: `/sandbox/${key}`, value: item });
  }
  if (Object.keys(kept).length) out.kept.sandbox = kept;
}

/**
 * Provider settings that shape requests but not where they go or with which credentials: a project
 * may set them untrusted. Where requests go and with what (`baseURL`, `apiKeyEnv`, `headers`), and
 * anything not named here, needs trust.
 */
const HARMLESS_PROVIDER = new Set(['name', 'model', 'maxTokens', 'temperature', 'thinking', 'retries', 'timeoutMs', 'idleTimeoutMs', 'contextWindow', 'responseCache']);

/** Which provider and model: where requests go and with which key (`baseURL`, `apiKeyEnv`) needs trust. */
function splitProvider(value: unknown, out: SplitLayer): void {
  if (!isObject(value)) return void out.widening.push({ pointer: '/provider', value });
  const kept: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (HARMLESS_PROVIDER.has(key)) kept[key] = item;
    else out.widening.push({ pointer: `/provider/${key}`, value: item });
  }
  if (Object.keys(kept).length) out.kept.provider = kept;
}

/** Recording a session for replay stays on this machine; where sessions are stored needs trust. */
function splitPersistence(value: unknown, out: SplitLayer): void {
  if (!isObject(value)) return void out.widening.push({ pointer: '/persistence', value });
  for (const [key, item] of Object.entries(value)) {
    if (key === 'record') out.kept.persistence = { record: item as boolean };
    else out.widening.push({ pointer: `/persistence/${key}`, value: item });
  }
}

/** A limit narrows when it is lower than the one in force without the project (no limit counts as none). */
function splitLimits(value: unknown, below: AssistantConfig['limits'], out: SplitLayer): void {
  if (!isObject(value)) return void out.widening.push({ pointer: '/limits', value });
  const kept: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const current = (below as Record<string, unknown> | undefined)?.[key];
    if (typeof item === 'number' && (current === undefined || (typeof current === 'number' && item <= current))) kept[key] = item;
    else out.widening.push({ pointer: `/limits/${key}`, value: item });
  }
  if (Object.keys(kept).length) out.kept.limits = kept;
}

/** The UI's look may be set untrusted; `ui.statusLine` runs a command, so it waits for trust. */
function splitUi(value: unknown, out: SplitLayer): void {
  if (!isObject(value)) return void (out.kept.ui = value);
  const { statusLine, ...rest } = value;
  if (statusLine !== undefined) out.widening.push({ pointer: '/ui/statusLine', value: statusLine });
  if (Object.keys(rest).length) out.kept.ui = rest;
}

/** Splits the values of one project config file into what always applies and what needs trust; `below` is what applies without the project. */
export function splitProjectLayer(values: AssistantConfig, below: AssistantConfig = {}): SplitLayer {
  const out: SplitLayer = { kept: {}, widening: [] };
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || key === 'extends') continue;
    if (key === 'permissions') splitPermissions(value, below, out);
    else if (key === 'sandbox') splitSandbox(value, below, out);
    else if (key === 'provider') splitProvider(value, out);
    else if (key === 'persistence') splitPersistence(value, out);
    else if (key === 'limits') splitLimits(value, below.limits, out);
    else if (key === 'ui') splitUi(value, out);
    else if (HARMLESS.has(key)) out.kept[key] = value;
    else out.widening.push({ pointer: `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, value });
  }
  return out;
}
