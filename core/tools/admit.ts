import type { Hooks, TurnContext } from '../kernel/hooks.js';
import type { ToolCallPart } from '../types/messages.js';
import type { ToolBatchContext, ToolDefinition, ToolRegistry, ToolResult } from '../types/tools.js';
import { closeMatches } from '../kernel/close-matches.js';
import { errorResult, thrownResult } from './results.js';
import type { InputValidators } from './validate.js';

/** A call that passed every check up to permission: its tool and its (normalized, validated) call. */
export interface AdmittedCall {
  definition: ToolDefinition<any>;
  call: ToolCallPart;
}

/** What admission decided: go on to permission, or answer at once with an error result. */
export type Admission = { admitted: AdmittedCall } | { refused: ToolResult; definition?: ToolDefinition<any> };

/**
 * The checks before permission, in order: unknown tool (with close names) → tool filter →
 * incomplete input → schema → `beforeToolCall` (which may rewrite the call; the result is
 * validated again) → schema again if the hook changed the input.
 */
export async function admitCall(
  call: ToolCallPart,
  batch: ToolBatchContext,
  turn: TurnContext,
  deps: { hooks: Hooks; registry: ToolRegistry; validators: InputValidators },
): Promise<Admission> {
  const allowed = (name: string) => !batch.toolFilter || batch.toolFilter(name);
  const definition = deps.registry.get(call.name);
  if (!definition || !allowed(call.name)) {
    const names = deps.registry
      .list()
      .map((d) => d.name)
      .filter(allowed);
    const close = closeMatches(call.name, names);
    const hint = close.length ? ` Did you mean ${close.map((n) => `"${n}"`).join(' or ')}?` : '';
    const why = definition ? 'is not available here' : 'does not exist';
    return { refused: errorResult('ASSISTANT_TOOL_UNKNOWN', `The tool "${call.name}" ${why}.${hint} Available tools: ${names.join(', ') || '(none)'}.`) };
  }
  if (call.inputError)
    return {
      definition,
      refused: errorResult(
        'ASSISTANT_TOOL_INPUT_INVALID',
        `The input for ${call.name} arrived incomplete or malformed (${call.inputError}), so the call was not run. Send the call again with complete JSON input.`,
      ),
    };
  const input = structuredClone(call.input ?? {});
  const problem = deps.validators.check(definition, input);
  if (problem) return { definition, refused: errorResult('ASSISTANT_TOOL_INPUT_INVALID', problem) };

  let normalized: ToolCallPart;
  try {
    normalized = await deps.hooks.beforeToolCall.promise({ ...call, input }, { definition, turn });
  } catch (error) {
    return { definition, refused: thrownResult(error, `${call.name} was refused before it ran: `) };
  }
  if (normalized.input !== input) {
    const again = deps.validators.check(definition, normalized.input);
    if (again) return { definition, refused: errorResult('ASSISTANT_TOOL_INPUT_INVALID', again) };
  }
  return { admitted: { definition, call: { ...normalized, id: call.id, name: call.name } } };
}
