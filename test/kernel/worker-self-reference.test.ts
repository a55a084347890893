// A third-party worker tool imports '@assistant-cli/assistant' inside a pool worker, where the main
// thread's resolution hooks do not reach. docs/plugins.md's own word-count sample (plugin and worker
// module, taken from the doc so it cannot rot) runs through the built CLI from a project in the
// system temp folder: with no copy of the package (a global install), and with another copy installed
// (the running one must still win), loaded by path and by package name.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { requestText, runHeadless, sharedFakeLlm } from '../e2e/support.js';
import { makeProject } from '../support/project.js';
import { ROOT } from '../support/packed.js';

/** The ```ts block of docs/plugins.md that contains `marker`, compiled to JavaScript as its author's build would. */
function docSample(marker: string): string {
  const blocks = [...readFileSync(join(ROOT, 'docs/plugins.md'), 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  const found = blocks.filter((code) => code.includes(marker));
  expect(found, `docs/plugins.md has one sample containing ${marker}`).toHaveLength(1);
  return ts.transpileModule(found[0]!, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
}

const PLUGIN = docSample("module: new URL('./word-count.worker.js', import.meta.url).href");
const WORKER = docSample('export async function run(task: WorkerTask, context: WorkerContext)');

/** Another copy of the package in the project: importing it at all is the failure. */
const OTHER_COPY = {
  'node_modules/@assistant-cli/assistant/package.json': JSON.stringify({ name: '@assistant-cli/assistant', version: '0.0.0-other', type: 'module', exports: { '.': './index.js' } }),
  'node_modules/@assistant-cli/assistant/index.js': "throw new Error('the project copy of assistant was imported');\n",
};

/** Where the plugin lives, and how .assistantrc names it. */
const INSTALLS = {
  'by path': { dir: 'tools/word-count', spec: './tools/word-count/index.js', files: {} },
  'by package name': {
    dir: 'node_modules/assistant-plugin-word-count',
    spec: 'assistant-plugin-word-count',
    files: {
      'node_modules/assistant-plugin-word-count/package.json': JSON.stringify({ name: 'assistant-plugin-word-count', type: 'module', exports: { '.': './index.js' } }),
    },
  },
};

const fake = sharedFakeLlm();

describe('a third-party worker tool importing the package by name', () => {
  for (const [how, install] of Object.entries(INSTALLS)) {
    for (const [copy, extra] of [
      ['no copy of the package in the project', {}],
      ['another copy of the package in the project', OTHER_COPY],
    ] as const) {
      it(`runs in the pool with the running kernel: loaded ${how}, ${copy}`, async () => {
        const dir = makeProject({
          '.assistantrc.json': JSON.stringify({ plugins: [install.spec], persistence: { store: 'none' } }),
          [`${install.dir}/index.js`]: PLUGIN,
          [`${install.dir}/word-count.worker.js`]: WORKER,
          'notes.txt': 'four words in here\n',
          ...install.files,
          ...extra,
        });
        fake.script({
          turns: [
            { name: 'count', when: { userText: 'How many words' }, reply: { toolCalls: [{ id: 'wc_1', name: 'WordCount', input: { file_path: 'notes.txt' } }] } },
            { name: 'answer', when: { toolResultFor: 'wc_1', toolResultContains: 'notes.txt: 4 words' }, reply: { text: 'Four.' } },
          ],
          fallback: { text: 'UNEXPECTED REQUEST' },
        });
        const result = await runHeadless(fake.server, dir, ['How many words are in notes.txt?', '--trust-project']);
        // The tool result the model saw: on failure it carries the worker's import error.
        expect(requestText(fake.server.requests[1]!)).toContain('notes.txt: 4 words');
        expect(result).toMatchObject({ code: 0, stdout: 'Four.\n', stderr: '' });
        expect(fake.server.requests.map((r) => r.turn)).toEqual(['count', 'answer']);
      });
    }
  }
});
