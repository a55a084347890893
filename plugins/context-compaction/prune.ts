import { declaredPaths, stableJson, type Kernel, type Message, type ToolCallPart, type ToolMessage, type ToolResultPart } from '../../core/index.js';

/** How old tool outputs are cut down. */
export interface PruneOptions {
  /** Outputs longer than this many characters are cut to head + tail. */
  truncateAbove: number;
  headChars: number;
  tailChars: number;
  /** Replace file reads superseded by a later read or edit of the same file with a short note. */
  dropSupersededReads: boolean;
}

/** What pruning changed. */
export interface PruneReport {
  messages: Message[];
  truncated: number;
  dropped: number;
  imagesRemoved: number;
}

interface CallInfo {
  call: ToolCallPart;
  /** Index of the assistant message that made the call. */
  index: number;
  category?: string;
  paths: string[];
}

function stableKey(call: ToolCallPart): string {
  return `${call.name}\u0000${stableJson(call.input)}`;
}

/** Every tool call in the history with what the registry says it touches. */
function collectCalls(kernel: Kernel, messages: readonly Message[]): CallInfo[] {
  const calls: CallInfo[] = [];
  messages.forEach((message, index) => {
    if (message.role !== 'assistant') return;
    for (const part of message.content) {
      if (part.type !== 'tool_call') continue;
      const definition = kernel.tools.get(part.name);
      const touched = definition ? declaredPaths(definition, part.input, { projectRoot: kernel.projectRoot, cwd: kernel.cwd }) : undefined;
      const paths = touched ? [...touched.reads, ...touched.writes] : [];
      calls.push({ call: part, index, category: definition?.risk.category, paths });
    }
  });
  return calls;
}

/**
 * Ids of read results made obsolete by a later call: the same read again, a full read of the same
 * file by the same tool, or any edit of that file. Only reads of exactly one path qualify (a search
 * over a folder is not a file read).
 */
function supersededReads(calls: CallInfo[], before: number): Map<string, string> {
  const out = new Map<string, string>();
  calls.forEach((info, i) => {
    if (info.index >= before || info.category !== 'read' || info.paths.length !== 1) return;
    const path = info.paths[0]!;
    for (const later of calls.slice(i + 1)) {
      if (later.index <= info.index) continue;
      const samePath = later.paths.includes(path);
      if (later.category === 'edit' && samePath) {
        out.set(info.call.id, `the file was edited later (${later.call.name})`);
        return;
      }
      if (later.call.name === info.call.name && samePath && (stableKey(later.call) === stableKey(info.call) || Object.keys(later.call.input).length === 1)) {
        out.set(info.call.id, `the file was read again later`);
        return;
      }
    }
  });
  return out;
}

function resultText(result: ToolResultPart): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

function truncated(result: ToolResultPart, call: ToolCallPart | undefined, options: PruneOptions, kernel: Kernel): ToolResultPart {
  const text = resultText(result);
  const omitted = text.length - options.headChars - options.tailChars;
  const summary = call ? (kernel.tools.get(call.name)?.summarize?.(call.input) ?? '') : '';
  const what = call ? `${call.name}${summary ? ` ${summary}` : ''}` : 'tool';
  const marker =
    `\n\n[... ${omitted} characters of this old ${what} output were removed to save context; ` +
    `call ${call?.name ?? 'the tool'} again (narrower if possible) to see them ...]\n\n`;
  return { ...result, content: [{ type: 'text', text: text.slice(0, options.headChars) + marker + text.slice(text.length - options.tailChars) }] };
}

/**
 * Cuts down the tool outputs of messages before `end`: superseded file reads become a note, long
 * outputs keep their head and tail with a marker saying how to get the rest, images become a note.
 * Messages that change are new objects; the others are kept as they were (their cache prefix holds).
 */
export function pruneToolOutputs(kernel: Kernel, messages: readonly Message[], end: number, options: PruneOptions): PruneReport {
  const calls = collectCalls(kernel, messages);
  const byId = new Map(calls.map((c) => [c.call.id, c.call]));
  const superseded = options.dropSupersededReads ? supersededReads(calls, end) : new Map<string, string>();
  const report: PruneReport = { messages: [...messages], truncated: 0, dropped: 0, imagesRemoved: 0 };
  for (let i = 0; i < end && i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role !== 'tool') continue;
    let changed = false;
    const content = message.content.map((result): ToolResultPart => {
      const call = byId.get(result.toolCallId);
      const why = superseded.get(result.toolCallId);
      if (why && !result.isError) {
        changed = true;
        report.dropped++;
        const target = call ? (kernel.tools.get(call.name)?.summarize?.(call.input) ?? call.name) : 'the file';
        return { ...result, content: [{ type: 'text', text: `[This earlier output of ${call?.name ?? 'a read'} (${target}) was removed: ${why}. Read the file again if you need its current content.]` }] };
      }
      let next = result;
      const images = result.content.filter((c) => c.type === 'image').length;
      if (images) {
        report.imagesRemoved += images;
        next = { ...next, content: [...next.content.filter((c) => c.type === 'text'), { type: 'text', text: `[${images} image(s) removed from this old output to save context]` }] };
      }
      if (resultText(next).length > options.truncateAbove) {
        report.truncated++;
        next = truncated(next, call, options, kernel);
      }
      if (next !== result) changed = true;
      return next;
    });
    if (changed) report.messages[i] = { ...message, content } satisfies ToolMessage;
  }
  return report;
}
