// The built CLI runs from the esbuild bundle (config/bundle-runtime.mjs). A third-party plugin imports
// the package by name, which resolves through `exports` to the bundle's entries: it must get the very
// classes the running kernel throws (main thread) and run on the bundle's pool worker (worker thread),
// never a second copy from tsc's tree beside the bundle.
import { describe, expect, it } from 'vitest';
import { requestText, runHeadless, sharedFakeLlm } from '../e2e/support.js';
import { makeProject } from '../support/project.js';

/** Shared by both probes: which of the package's files are on the call stack right now. */
const STACK_REPORT = `
function stackReport(label) {
  const pkg = new URL('./', import.meta.resolve('@assistant-cli/assistant/package.json')).href;
  // ES modules show as URLs, the CommonJS bundles as paths.
  const frames = (new Error().stack.match(/(file:\\/\\/)?\\/[^\\s()]+?(?=:\\d+:\\d+)/g) ?? []).map((f) => (f.startsWith('file:') ? f : 'file://' + f)).filter((url) => url.startsWith(pkg + 'dist/'));
  const bundled = [...new Set(frames.filter((url) => url.startsWith(pkg + 'dist/bundle/')).map((url) => url.slice(pkg.length)))];
  // bin/assistant.cjs, the package's bin, stays outside the bundle: it only picks the bundled CLI.
  const tscTree = frames.filter((url) => !url.startsWith(pkg + 'dist/bundle/') && url !== pkg + 'dist/bin/assistant.cjs').map((url) => url.slice(pkg.length));
  const kit = decodeURIComponent(import.meta.resolve('@assistant-cli/assistant/kits/tool').slice(pkg.length));
  return label + ' bundled-frames=[' + bundled.join(' ') + '] tsc-tree-frames=[' + tscTree.join(' ') + '] kit=' + kit;
}
`;

const PLUGIN = `
import { definePlugin, textResult, AssistantError, PluginError } from '@assistant-cli/assistant';
${STACK_REPORT}
let report = 'apply never ran';
export default definePlugin({
  name: 'one-copy-probe',
  apply(kernel) {
    // An error the kernel itself raises must be an instance of the classes this plugin imported.
    let sameClasses = 'no error';
    try {
      kernel.tools.register({ name: 'not a valid name' });
    } catch (error) {
      sameClasses = String(error instanceof PluginError && error instanceof AssistantError);
    }
    report = stackReport('main') + ' same-classes=' + sameClasses;
    kernel.tools.register({
      name: 'MainProbe',
      description: 'Reports how the main thread loaded the package.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      access: () => ({ reads: [], writes: [] }),
      risk: { category: 'read' },
      handler: async () => textResult(report),
    });
    kernel.tools.register({
      name: 'WorkerProbe',
      description: 'Reports how a pool worker loaded the package.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      access: () => ({ reads: [], writes: [] }),
      risk: { category: 'read' },
      module: new URL('./probe.worker.js', import.meta.url).href,
    });
  },
});
`;

const WORKER = `
import { textResult } from '@assistant-cli/assistant/kits/tool';
${STACK_REPORT}
export async function run() {
  return textResult(stackReport('worker'));
}
`;

const fake = sharedFakeLlm();

describe('the bundled CLI with a third-party plugin', () => {
  it('gives the plugin the running kernel, on the main thread and in a pool worker', async () => {
    const dir = makeProject({
      '.assistantrc.json': JSON.stringify({ plugins: ['./probe/index.js'], permissions: { allow: ['MainProbe', 'WorkerProbe'] }, persistence: { store: 'none' } }),
      'probe/index.js': PLUGIN,
      'probe/probe.worker.js': WORKER,
    });
    fake.script({
      turns: [
        { name: 'probe', when: { userText: 'Probe' }, reply: { toolCalls: [{ id: 'm1', name: 'MainProbe', input: {} }, { id: 'w1', name: 'WorkerProbe', input: {} }] } },
        { name: 'answer', when: { toolResultFor: 'w1' }, reply: { text: 'Probed.' } },
      ],
      fallback: { text: 'UNEXPECTED REQUEST' },
    });
    const result = await runHeadless(fake.server, dir, ['Probe the package.', '--trust-project']);
    expect(result).toMatchObject({ code: 0, stdout: 'Probed.\n', stderr: '' });
    const seen = requestText(fake.server.requests[1]!);
    const report = (label: string) => seen.match(new RegExp(`${label} bundled-frames[^"]*`))?.[0];
    // The plugin's apply is called from the main thread's bundle, with no file of tsc's tree on the stack.
    expect(report('main')).toMatch(/main bundled-frames=\[[^\]]*dist\/bundle\/runtime\.cjs[^\]]*\] tsc-tree-frames=\[\] kit=dist\/bundle\/core~kits~tool~index\.js same-classes=true/);
    expect(report('main')).not.toContain('tools.cjs');
    // The pool worker runs the pool threads' bundle, and the plugin's worker module gets the bundle's kit.
    expect(report('worker')).toMatch(/worker bundled-frames=\[[^\]]*dist\/bundle\/tools\.cjs[^\]]*\] tsc-tree-frames=\[\] kit=dist\/bundle\/core~kits~tool~index\.js/);
    expect(report('worker')).not.toContain('runtime.cjs');
  });
});
