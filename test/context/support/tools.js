// Tools for context tests: Read, Edit and Bash with the lock sets and risk hints the real tools give
// (paths in access, category), and a runner that executes their handlers in call order, then `afterToolCall`. Used until the tool runtime
// (another branch) is on main; the strategies only ever see the registry and the results.

/** Deterministic file content of about `size` characters. @param {string} path @param {number} size */
export function fileContent(path, size) {
  const line = `// ${path}: export function handler() { return compute(input, options); }\n`;
  return line.repeat(Math.ceil(size / line.length)).slice(0, size);
}

/** @param {{ readSize?: number | ((path: string) => number), bashSize?: number }} [options] */
export function testToolsPlugin(options = {}) {
  const readSize = typeof options.readSize === 'function' ? options.readSize : () => /** @type {number} */ (options.readSize ?? 1200);
  const edits = new Map();
  return {
    name: 'test-tools',
    /** @param {import('../../../dist/core/index.js').Kernel} kernel */
    apply(kernel) {
      const text = (t) => ({ content: [{ type: 'text', text: t }] });
      kernel.tools.register({
        name: 'Read',
        description: 'Reads a file from the project.',
        inputSchema: { type: 'object', properties: { file_path: { type: 'string' }, offset: { type: 'number' }, limit: { type: 'number' } }, required: ['file_path'] },
        access: (i) => ({ reads: [String(i.file_path)], writes: [] }),
        risk: { category: 'read' },
        summarize: (i) => String(i.file_path),
        handler: async (i) => text(`${edits.get(i.file_path) ?? ''}${fileContent(String(i.file_path), readSize(String(i.file_path)))}`),
      });
      kernel.tools.register({
        name: 'Edit',
        description: 'Replaces text in a file.',
        inputSchema: { type: 'object', properties: { file_path: { type: 'string' }, old_string: { type: 'string' }, new_string: { type: 'string' } }, required: ['file_path'] },
        access: (i) => ({ reads: [], writes: [String(i.file_path)] }),
        risk: { category: 'edit' },
        summarize: (i) => String(i.file_path),
        handler: async (i) => {
          edits.set(i.file_path, `// edited: ${i.new_string}\n`);
          return text(`Edited ${i.file_path}`);
        },
      });
      kernel.tools.register({
        name: 'Bash',
        description: 'Runs a shell command.',
        inputSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
        access: 'write',
        risk: { category: 'execute', command: (i) => String(i.command) },
        summarize: (i) => String(i.command),
        handler: async (i) => text(`$ ${i.command}\n` + 'output line of a long build log\n'.repeat(Math.ceil((options.bashSize ?? 20000) / 32))),
      });
    },
  };
}

/** Runs calls through the registered handlers in call order (the shape of the real runtime's results). @param {import('../../../dist/core/index.js').Kernel} kernel */
export function installToolRunner(kernel) {
  kernel.runToolCalls = async (calls, context) => {
    const results = [];
    for (const call of calls) {
      const tool = kernel.tools.get(call.name);
      if (!tool?.handler) {
        results.push({ type: 'tool_result', toolCallId: call.id, content: [{ type: 'text', text: `unknown tool ${call.name}` }], isError: true });
        continue;
      }
      const result = await tool.handler(call.input, { callId: call.id, projectRoot: kernel.projectRoot, cwd: kernel.cwd, signal: context.signal });
      const part = { type: 'tool_result', toolCallId: call.id, content: result.content, ...(result.isError ? { isError: true } : {}) };
      const turn = { turn: context.turn, sessionId: context.sessionId, agentId: context.agentId, signal: context.signal };
      results.push(await kernel.hooks.afterToolCall.promise(part, { definition: tool, turn, call }));
    }
    return results;
  };
}
