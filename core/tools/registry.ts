import { PluginError } from '../kernel/errors.js';
import type { ToolDefinition, ToolRegistry } from '../types/tools.js';

/** Both providers accept tool names of this shape. */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Checks a tool definition's shape; throws a PluginError naming the tool and plugin. */
export function checkToolDefinition(definition: ToolDefinition<any>, plugin?: string): void {
  const where = `tool "${definition?.name}"${plugin ? ` (plugin "${plugin}")` : ''}`;
  const fail = (why: string) => {
    throw new PluginError('ASSISTANT_PLUGIN_INVALID', `${where} ${why}`, { plugin });
  };
  if (!definition || typeof definition.name !== 'string' || !TOOL_NAME.test(definition.name))
    fail('has an invalid name: it must match ^[a-zA-Z0-9_-]{1,64}$');
  if (typeof definition.description !== 'string' || !definition.description) fail('needs a description');
  if (!definition.inputSchema || typeof definition.inputSchema !== 'object') fail('needs an inputSchema (JSON Schema)');
  if (!definition.risk || typeof definition.risk.category !== 'string') fail('needs risk.category');
  // The paths a call touches are declared once, in its lock set: a second list could only disagree with it.
  if ('paths' in definition.risk) fail('has risk.paths, which is no longer read: declare the paths in access, e.g. access: (input) => ({ reads: [input.file_path], writes: [] })');
  if (definition.risk.command !== undefined && typeof definition.risk.command !== 'function') fail('has a risk.command that is not a function of the input');
  if (!(definition.access === 'read' || definition.access === 'write' || typeof definition.access === 'function'))
    fail('needs access: "read", "write" or a function of the input returning a lock set');
  const hasModule = typeof definition.module === 'string';
  const hasHandler = typeof definition.handler === 'function';
  if (hasModule === hasHandler) fail('needs exactly one implementation: a worker `module` URL or a main-thread `handler`');
  if (hasModule && !definition.module!.startsWith('file:')) fail('module must be a file URL (new URL("./x.js", import.meta.url).href)');
}

/** The tools of one kernel instance. */
export function createToolRegistry(currentPlugin: () => string | undefined): ToolRegistry {
  const tools = new Map<string, ToolDefinition<any>>();
  let sorted: ToolDefinition<any>[] | undefined;
  return {
    register(definition) {
      const plugin = definition.plugin ?? currentPlugin();
      checkToolDefinition(definition, plugin);
      const existing = tools.get(definition.name);
      if (existing)
        throw new PluginError(
          'ASSISTANT_PLUGIN_INVALID',
          `tool "${definition.name}" is registered twice (by "${existing.plugin}" and "${plugin}"); disable one of the plugins`,
          { plugin },
        );
      tools.set(definition.name, { ...definition, plugin });
      sorted = undefined;
    },
    unregister(name) {
      sorted = undefined;
      return tools.delete(name);
    },
    get: (name) => tools.get(name),
    list() {
      sorted ??= [...tools.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return sorted;
    },
  };
}
