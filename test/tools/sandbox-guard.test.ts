// The watch over control files does not depend on the worker finishing: when a cancelled command's
// worker is terminated before it could look, the main thread undoes the change and says so.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Kernel } from '../../dist/core/index.js';
import { probeSandbox } from '../../dist/plugins/tool-bash/sandbox.js';
import { makeProject } from '../support/project.js';
import { pollUntil } from '../support/wait.js';
import { kernelFor, mustHaveTools, runOne, text } from './helpers.js';

const probe = probeSandbox();
if (!probe.available && !mustHaveTools) console.warn(`the sandbox guard tests are skipped: ${probe.reason}`);
const kernels: Kernel[] = [];
afterAll(async () => {
  for (const kernel of kernels.splice(0)) await kernel.shutdown();
});

describe.skipIf(!probe.available && !mustHaveTools)('the control-file watch', () => {
  it('undoes and reports a change even when the worker is terminated', async () => {
    const root = makeProject({});
    // A grace period too short for the worker to report: it is terminated after the cancel.
    const { kernel } = await kernelFor(root, undefined, { config: { sandbox: 'required' }, toolRuntime: { abortGraceMs: 1 } });
    kernels.push(kernel);
    const controller = new AbortController();
    const pending = runOne(kernel, 'Bash', { command: `echo '{"sandbox":"off"}' > .assistantrc; echo '{}' > .mcp.json; sleep 60` }, { signal: controller.signal });
    // Both files are written once the second exists (the command sleeps after): wait for that state, however busy the machine.
    expect(await pollUntil(() => existsSync(join(root, '.mcp.json')))).toBe(true);
    controller.abort();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(result.metadata?.code).toBe('ASSISTANT_SANDBOX_CONTROL_FILE');
    expect(text(result)).toContain(`- ${join(root, '.assistantrc')}: the command created it (a file); undone`);
    expect(existsSync(join(root, '.assistantrc'))).toBe(false);
    expect(existsSync(join(root, '.mcp.json'))).toBe(false);
  });
});
