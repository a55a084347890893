import { readFileSync, statSync } from 'node:fs';
import type * as acp from '@agentclientprotocol/sdk';
import { declaredPaths, isInside, realPath, type ToolCallPart, type ToolDefinition, type ToolResultPart } from '../../core/index.js';

/** What the mapping needs to know about where a call runs. */
export interface CallScope {
  projectRoot: string;
  cwd: string;
  tool(name: string): ToolDefinition<any> | undefined;
}

/** Largest file whose current text is sent as a Write's `oldText` (an editor diffs it in memory). */
const MAX_DIFF_BYTES = 512 * 1024;
/** Largest tool output sent to the editor per call. */
const MAX_OUTPUT_CHARS = 32_000;

const KIND_BY_NAME: Record<string, acp.ToolKind> = { Grep: 'search', Glob: 'search', LS: 'search', WebSearch: 'search', WebFetch: 'fetch', TodoWrite: 'think' };
const KIND_BY_CATEGORY: Record<string, acp.ToolKind> = { read: 'read', edit: 'edit', execute: 'execute', network: 'fetch' };

/** The ACP kind of a tool (the icon an editor shows): by its name for the search tools, else by its risk category. */
export function toolKind(name: string, definition: ToolDefinition<any> | undefined): acp.ToolKind {
  return KIND_BY_NAME[name] ?? KIND_BY_CATEGORY[definition?.risk.category ?? ''] ?? 'other';
}

function titleOf(call: ToolCallPart, definition: ToolDefinition<any> | undefined): string {
  let summary = '';
  try {
    summary = definition?.summarize?.(call.input) ?? '';
  } catch {
    summary = '';
  }
  return summary ? `${call.name} ${summary}` : call.name;
}

/** The files a call touches, as absolute paths (from the tool's own lock set declaration). */
function locationsOf(call: ToolCallPart, definition: ToolDefinition<any> | undefined, scope: CallScope): acp.ToolCallLocation[] {
  if (!definition) return [];
  const { reads, writes } = declaredPaths(definition, call.input, { projectRoot: scope.projectRoot, cwd: scope.cwd });
  return [...new Set([...writes, ...reads])].filter((p) => p.startsWith('/')).map((path) => ({ path }));
}

/** A file's current text, only inside the project and only when small (never follows a link out of it). */
function currentText(path: string, projectRoot: string): string | null {
  try {
    const real = realPath(path);
    if (!real || !isInside(real, projectRoot) || statSync(real).size > MAX_DIFF_BYTES) return null;
    return readFileSync(real, 'utf8');
  } catch {
    return null;
  }
}

/**
 * The diffs an edit proposes: Edit and MultiEdit as their replacements, Write as the whole file
 * (against its current text when `projectRoot` is given; a replayed Write has none to compare with).
 */
export function diffsOf(call: ToolCallPart, path: string | undefined, projectRoot: string | undefined): acp.ToolCallContent[] {
  if (!path) return [];
  const input = call.input as { content?: unknown; old_string?: unknown; new_string?: unknown; edits?: unknown };
  const diff = (oldText: string | null, newText: string): acp.ToolCallContent => ({ type: 'diff', path, oldText, newText });
  if (call.name === 'Write' && typeof input.content === 'string') return [diff(projectRoot ? currentText(path, projectRoot) : null, input.content)];
  if (call.name === 'Edit' && typeof input.old_string === 'string' && typeof input.new_string === 'string') return [diff(input.old_string, input.new_string)];
  if (call.name === 'MultiEdit' && Array.isArray(input.edits))
    return input.edits
      .filter((e): e is { old_string: string; new_string: string } => typeof e?.old_string === 'string' && typeof e?.new_string === 'string')
      .map((e) => diff(e.old_string, e.new_string));
  return [];
}

/** The `tool_call` an editor shows when the model asks for a call (`pending`) or in a replayed history: title, kind, files and diffs. */
export function toolCallFor(call: ToolCallPart, scope: CallScope, status: acp.ToolCallStatus = 'pending'): acp.ToolCall {
  const definition = scope.tool(call.name);
  const locations = locationsOf(call, definition, scope);
  const edits = toolKind(call.name, definition) === 'edit' ? diffsOf(call, locations[0]?.path, status === 'pending' ? scope.projectRoot : undefined) : [];
  return {
    toolCallId: call.id,
    title: titleOf(call, definition),
    kind: toolKind(call.name, definition),
    status,
    rawInput: call.input,
    ...(locations.length ? { locations } : {}),
    ...(edits.length ? { content: edits } : {}),
  };
}

/** The text of a result, cut to what an editor panel should hold. */
function outputText(result: ToolResultPart): string {
  const text = result.content.map((p) => (p.type === 'text' ? p.text : `[image ${p.mediaType}]`)).join('\n');
  return text.length > MAX_OUTPUT_CHARS ? `${text.slice(0, MAX_OUTPUT_CHARS)}\n… (${text.length - MAX_OUTPUT_CHARS} more characters)` : text;
}

/** The update that closes a call: completed or failed, with its output (an edit keeps its diff on screen). */
export function resultUpdate(result: ToolResultPart, keepDiffs: acp.ToolCallContent[] = []): acp.ToolCallUpdate {
  const text = outputText(result);
  return {
    toolCallId: result.toolCallId,
    status: result.isError ? 'failed' : 'completed',
    content: [...keepDiffs, ...(text ? [{ type: 'content' as const, content: { type: 'text' as const, text } }] : [])],
  };
}

/** A TodoWrite list as an ACP plan. */
export function planOf(input: Record<string, unknown>): acp.Plan | undefined {
  const todos = input.todos;
  if (!Array.isArray(todos)) return undefined;
  const entries = todos
    .filter((t): t is { content: string; status: acp.PlanEntryStatus } => typeof t?.content === 'string' && ['pending', 'in_progress', 'completed'].includes(t?.status))
    .map((t) => ({ content: t.content, status: t.status, priority: 'medium' as const }));
  return { entries };
}
