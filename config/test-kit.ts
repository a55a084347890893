/**
 * The test kit for plugin authors (`<pkg>/testing`): a kernel with chosen plugins in a temp project,
 * a scripted model behind a wire-compatible fake LLM server, tool calls through the real pipeline,
 * and a record of every hook call to assert on. The kit lives in core/testing; core never imports
 * config/, so this entry binds it to the configuration layer: the default preset's built-ins, and
 * the temp project's `.assistantrc` loaded as the CLI loads a project's (never the user's own config).
 */
import { createTestKernelWith, type TestKernel, type TestKernelOptions, type TestKitConfig } from '../core/testing/test-kernel.js';
import { DEFAULT_PLUGINS } from './defaults.js';
import { loadConfig } from './load.js';

export * from '../core/testing/index.js';

const configLayer: TestKitConfig = {
  builtins: DEFAULT_PLUGINS,
  load: (cwd, flags) => loadConfig({ cwd, flags, noUserConfig: true }),
};

/**
 * Creates a kernel for plugin tests: a temp project with `files` and `config`, the chosen built-ins
 * (every default one unless `builtins` says otherwise), the plugins under test, and (with `model`)
 * the built-in provider talking to a fake LLM server. Every hook call is recorded from the moment
 * the plugins are applied. Sessions and audit logs go to a temp data directory: unless the process
 * already names one, `ASSISTANT_DATA_DIR` is set for it.
 */
export function createTestKernel(options: TestKernelOptions = {}): Promise<TestKernel> {
  return createTestKernelWith(configLayer, options);
}
