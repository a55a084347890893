import { ConfigError, sourceFor, type JsonSchema, type Kernel } from '../../core/index.js';

/** The events a shell hook can run on (Claude Code's names, so existing hook configs read the same). */
export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'SessionStart'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Events whose `matcher` is matched against something: the tool name, or how the session opened. */
const MATCHED: ReadonlySet<HookEvent> = new Set(['PreToolUse', 'PostToolUse', 'SessionStart']);

/** Seconds a command may run when its `timeout` is not set. */
export const DEFAULT_TIMEOUT_S = 60;

/** One command to run. */
export interface CommandHook {
  type: 'command';
  /** Run by the user's shell in the project root; the event arrives as JSON on stdin. */
  command: string;
  /** Seconds before the command and everything it started are killed (default 60). */
  timeout?: number;
}

/** Commands that run when the matcher matches. */
export interface HookGroup {
  /** A regular expression matched against the whole tool name (or session source); empty or `*` matches all. */
  matcher?: string;
  hooks: CommandHook[];
}

/** The `hooks` section: event name → groups, run in the order listed. */
export type HooksOptions = Partial<Record<HookEvent, HookGroup[]>>;

const group: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['hooks'],
  properties: {
    matcher: { type: 'string' },
    hooks: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['type', 'command'],
        properties: {
          type: { enum: ['command'] },
          command: { type: 'string', minLength: 1 },
          timeout: { type: 'number', exclusiveMinimum: 0, maximum: 86400 },
        },
      },
    },
  },
};

/** JSON Schema of the options. Unknown event names are reported by `compileHooks`, with the list of events. */
export const optionsSchema: JsonSchema = {
  type: 'object',
  properties: Object.fromEntries(HOOK_EVENTS.map((event) => [event, { type: 'array', items: group }])),
};

/** A command ready to run for one event. */
export interface CompiledCommand {
  event: HookEvent;
  command: string;
  timeoutMs: number;
  matches(target: string): boolean;
}

/** Every configured command, by event, in config order. */
export type CompiledHooks = Map<HookEvent, CompiledCommand[]>;

/** Checks what the schema cannot (event names, matchers) and compiles the matchers. */
export function compileHooks(kernel: Kernel, options: HooksOptions): CompiledHooks {
  const invalid = (pointer: string, what: string) =>
    new ConfigError('ASSISTANT_PLUGIN_OPTIONS_INVALID', `invalid options for plugin "hooks-shell" in ${sourceFor(kernel.resolvedConfig, pointer)}:\n  ${pointer}: ${what}`, {
      plugin: 'hooks-shell',
      file: sourceFor(kernel.resolvedConfig, pointer),
    });
  const compiled: CompiledHooks = new Map();
  for (const [event, groups] of Object.entries(options)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event))
      throw invalid(`/hooks/${event}`, `is not an event hooks run on; the events are ${HOOK_EVENTS.join(', ')}`);
    const name = event as HookEvent;
    const commands: CompiledCommand[] = [];
    (groups ?? []).forEach((g, i) => {
      const pattern = g.matcher?.trim() ?? '';
      const all = pattern === '' || pattern === '*';
      if (!all && !MATCHED.has(name)) throw invalid(`/hooks/${event}/${i}/matcher`, `${event} hooks take no matcher (they are not about a tool); remove it`);
      let regex: RegExp | undefined;
      try {
        regex = all ? undefined : new RegExp(`^(?:${pattern})$`);
      } catch (error) {
        throw invalid(`/hooks/${event}/${i}/matcher`, `is not a valid regular expression (${(error as Error).message})`);
      }
      for (const hook of g.hooks)
        commands.push({ event: name, command: hook.command, timeoutMs: (hook.timeout ?? DEFAULT_TIMEOUT_S) * 1000, matches: (target) => !regex || regex.test(target) });
    });
    if (commands.length) compiled.set(name, commands);
  }
  return compiled;
}
