import { AssistantError, Stage, definePlugin, lazyImport, type TextPart, type ToolResultPart, type TurnContext } from '../../core/index.js';
import type { DispatchDeps, EventOutcome, HookInput } from './dispatch.js';
import { compileHooks, optionsSchema, type HookEvent, type HooksOptions } from './options.js';
import { HOOKS_SHELL_ERRORS } from './errors.js';

const NAME = 'hooks-shell';

/** Running commands and reading their answers, imported when the first hook fires (never without hooks). */
const dispatcher = lazyImport(NAME, 'hook dispatcher', () => import('./dispatch.js'));
type Dispatcher = Awaited<ReturnType<typeof dispatcher>>;

const textOf = (content: ReadonlyArray<{ type: string; text?: string }>) =>
  content
    .filter((p): p is TextPart => p.type === 'text')
    .map((p) => p.text)
    .join('\n');

/** The model-facing notes of an outcome: each context, then the block reason (PostToolUse). */
function notes({ contextText }: Dispatcher, outcome: EventOutcome): TextPart[] {
  const texts = outcome.contexts.map((c) => contextText(c));
  if (outcome.block) texts.push(contextText({ text: outcome.block.reason, command: outcome.block.command }, 'block'));
  return texts.map((text) => ({ type: 'text', text }));
}

function blocked({ labelOf }: Dispatcher, what: string, outcome: EventOutcome, hook: string): AssistantError {
  const { command, reason } = outcome.block!;
  return new AssistantError(HOOKS_SHELL_ERRORS.ASSISTANT_HOOK_BLOCKED, `${what} by the ${labelOf(command)}: ${reason}`, { plugin: NAME, hook });
}

/**
 * Shell hooks: commands from the `hooks` section of .assistantrc run on kernel events (before and
 * after tool calls, on prompt submit, when the agent stops, when a session opens), read the event
 * as JSON on stdin and answer by exit status and JSON on stdout. They are the user's own commands:
 * they run outside the permission engine and the Bash sandbox, like git hooks.
 */
export default definePlugin<HooksOptions>({
  name: NAME,
  errors: HOOKS_SHELL_ERRORS,
  version: '1.0.0',
  configKey: 'hooks',
  optionsSchema,
  apply(kernel, options, { logger }) {
    const hooks = compileHooks(kernel, options);
    if (!hooks.size) return;
    /** SessionStart runs before any output is attached: its reports wait for the session's first prompt. */
    const waitingReports = new Map<string, Array<[string, boolean]>>();
    /** SessionStart context per session, added to the system prompt. */
    const sessionContext = new Map<string, string>();

    const notify = (message: string, failed: boolean, origin: { sessionId?: string; agentId?: string }) => {
      logger.debug(message);
      try {
        kernel.hooks.event.call({ type: 'notice', level: 'warn', message, ...(failed ? { code: 'ASSISTANT_HOOK_COMMAND_FAILED' } : {}), ...origin });
      } catch (error) {
        logger.error(`reporting a hook failure failed: ${(error as Error)?.message ?? error}`);
      }
    };
    const deps = (origin: { sessionId?: string; agentId?: string }): DispatchDeps => ({
      projectRoot: kernel.projectRoot,
      files: kernel.files,
      logger,
      report: (message, failed) => notify(message, failed, origin),
    });
    const input = (event: HookEvent, turn: Pick<TurnContext, 'sessionId' | 'agentId'>, extra: Record<string, unknown>): HookInput => ({
      hook_event_name: event,
      session_id: turn.sessionId,
      ...(turn.agentId ? { agent_id: turn.agentId } : {}),
      cwd: kernel.cwd,
      project_root: kernel.projectRoot,
      permission_mode: kernel.session?.mode,
      ...extra,
    });

    const pre = hooks.get('PreToolUse');
    if (pre)
      // Last, so the commands see the input as every other plugin left it.
      kernel.hooks.beforeToolCall.tapPromise({ name: NAME, stage: Stage.LAST }, async (call, info) => {
        const event = input('PreToolUse', info.turn, { tool_name: call.name, tool_input: call.input, tool_use_id: call.id });
        const d = await dispatcher();
        const outcome = await d.runEvent(deps(info.turn), pre, call.name, event, info.turn.signal);
        if (outcome.block) throw blocked(d, 'blocked', outcome, 'beforeToolCall');
        return outcome.input ? { ...call, input: outcome.input } : call;
      });

    const post = hooks.get('PostToolUse');
    if (post)
      // First, so the commands see the tool's own result, before other plugins add to it.
      kernel.hooks.afterToolCall.tapPromise({ name: NAME, stage: Stage.FIRST }, async (result: ToolResultPart, info) => {
        if (result.isError) return result;
        const { call, turn } = info;
        const response = { text: textOf(result.content), is_error: false, ...(result.metadata ? { metadata: result.metadata } : {}) };
        const event = input('PostToolUse', turn, { tool_name: call.name, tool_input: call.input, tool_use_id: call.id, tool_response: response });
        const d = await dispatcher();
        const added = notes(d, await d.runEvent(deps(turn), post, call.name, event, turn.signal));
        return added.length ? { ...result, content: [...result.content, ...added] } : result;
      });

    const submit = hooks.get('UserPromptSubmit');
    const start = hooks.get('SessionStart');
    if (submit || start)
      kernel.hooks.userPrompt.tapPromise({ name: NAME, stage: Stage.GUARD }, async (message, turn) => {
        if (turn.agentId || (message.meta?.origin && message.meta.origin !== 'user')) return message;
        for (const [report, failed] of waitingReports.get(turn.sessionId ?? '') ?? []) notify(report, failed, turn);
        waitingReports.delete(turn.sessionId ?? '');
        if (!submit) return message;
        const d = await dispatcher();
        const outcome = await d.runEvent(deps(turn), submit, '', input('UserPromptSubmit', turn, { prompt: textOf(message.content) }), turn.signal);
        if (outcome.block) throw blocked(d, 'the prompt was blocked', outcome, 'userPrompt');
        const added = notes(d, outcome);
        return added.length ? { ...message, content: [...message.content, ...added] } : message;
      });

    const stop = hooks.get('Stop');
    if (stop)
      kernel.hooks.beforeStop.tapPromise(NAME, async (context) => {
        if (context.agentId) return undefined;
        const event = input('Stop', context, { stop_hook_active: context.continued > 0, reply: context.text });
        const { runEvent, contextText } = await dispatcher();
        const outcome = await runEvent(deps(context), stop, '', event, context.signal);
        return outcome.block ? contextText({ text: outcome.block.reason, command: outcome.block.command }, 'block') : undefined;
      });

    if (start) {
      kernel.hooks.sessionOpen.tapPromise(NAME, async (session, info) => {
        const id = session.info.id;
        const reports: Array<[string, boolean]> = [];
        const { runEvent, contextText } = await dispatcher();
        const event = { ...input('SessionStart', { sessionId: id }, { source: info.source }), permission_mode: session.mode };
        const outcome = await runEvent({ ...deps({ sessionId: id }), report: (m, failed) => reports.push([m, failed]) }, start, info.source, event);
        if (reports.length) waitingReports.set(id, reports);
        if (outcome.contexts.length) sessionContext.set(id, outcome.contexts.map((c) => contextText(c)).join('\n\n'));
        else sessionContext.delete(id);
      });
      kernel.hooks.systemPrompt.tap(NAME, (sections, reason) => {
        const text = reason.agentId || !reason.sessionId ? undefined : sessionContext.get(reason.sessionId);
        return text ? [...sections, { id: 'hooks-session-start', text }] : sections;
      });
    }
    logger.debug(`shell hooks on ${[...hooks.keys()].join(', ')}`);
  },
});
