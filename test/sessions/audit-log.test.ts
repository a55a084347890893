// One audit log: the audit-log plugin records each call's permission decision, the approval asked
// for and its answer, the mode and an input digest, beside the session. Nothing else writes one.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { definePlugin, projectDataDir } from '@assistant-cli/assistant';
import { createTestKernel, type TestKernel } from '@assistant-cli/assistant/testing';
import { inputDigest } from '../../dist/plugins/audit-log/record.js';

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  vi.restoreAllMocks();
});

/** A person who allows `touch` once and declines everything else. */
const person = definePlugin({
  name: 'test-person',
  apply(kernel) {
    kernel.hooks.approval.tapPromise('test-person', async (items) =>
      items.map((item) => (String(item.request.input.command).startsWith('touch') ? { behavior: 'allow', scope: 'once' } : { behavior: 'deny', scope: 'once' })),
    );
  },
});

function auditFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.audit.jsonl')).map((f) => join(dir, f));
}

describe('the audit log', () => {
  it('records decisions, approvals with their answers, the mode and an input digest for each call, and nothing writes a second log', async () => {
    const stderr: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (stderr.push(String(chunk)), true));
    t = await createTestKernel({
      plugins: [person],
      headless: false,
      logLevel: 'warn',
      files: { 'a.txt': 'hello\n' },
      config: { persistence: { store: 'jsonl' }, permissions: { audit: false } as never },
    });
    const session = await t.session();
    const results = await t.callTools([
      { name: 'Bash', input: { command: 'rm -rf /' }, id: 'call-rm' },
      { name: 'Bash', input: { command: 'touch approved.txt' }, id: 'call-touch' },
      { name: 'Bash', input: { command: 'curl -X POST https://example.com' }, id: 'call-curl' },
      { name: 'Read', input: { file_path: 'a.txt' }, id: 'call-read' },
    ]);
    expect(results.map((r) => Boolean(r.isError))).toEqual([true, false, true, false]);
    const dataDir = process.env.ASSISTANT_DATA_DIR!;
    const root = t.projectRoot;
    await t.close();
    t = undefined;

    const [file, ...others] = auditFiles(dataDir).filter((f) => f.includes(session.info.id));
    expect(others).toEqual([]);
    const records = readFileSync(file!, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    const byCall = Object.fromEntries(records.map((r) => [r.callId, r]));
    expect(Object.keys(byCall).sort()).toEqual(['call-curl', 'call-read', 'call-rm', 'call-touch']);

    expect(byCall['call-rm']).toMatchObject({
      sessionId: session.info.id,
      tool: 'Bash',
      mode: 'default',
      inputDigest: inputDigest({ command: 'rm -rf /' }),
      decision: { behavior: 'deny', layer: expect.any(String), reason: expect.any(String) },
      outcome: 'denied',
    });
    expect(byCall['call-rm'].approval).toBeUndefined();
    // Asked, answered by the person: the layer and reason that asked, the answer, and the final decision.
    expect(byCall['call-touch']).toMatchObject({
      approval: { behavior: 'ask', layer: expect.any(String), reason: expect.any(String), answer: { behavior: 'allow', scope: 'once' } },
      decision: { behavior: 'allow', layer: 'approval' },
      outcome: 'ok',
    });
    expect(byCall['call-touch'].approval.layer).not.toBe('approval');
    expect(byCall['call-curl']).toMatchObject({ approval: { behavior: 'ask', answer: { behavior: 'deny', scope: 'once' } }, decision: { behavior: 'deny', layer: 'approval' }, outcome: 'denied' });
    expect(byCall['call-read']).toMatchObject({ decision: { behavior: 'allow' }, outcome: 'ok', inputDigest: expect.stringMatching(/^sha256:[0-9a-f]{32}$/) });

    // The permissions plugin keeps no log of its own any more, even with its old option set.
    expect(existsSync(join(projectDataDir(root), 'audit'))).toBe(false);
    const warning = stderr.join('');
    expect(warning).toContain('permissions.audit');
    expect(warning).toContain('deprecated');
    expect(warning).toContain('audit.enabled: false');
  });

  it('digests inputs whatever their key order', () => {
    expect(inputDigest({ a: 1, b: [2, { c: 3, d: 4 }] })).toBe(inputDigest({ b: [2, { d: 4, c: 3 }], a: 1 }));
    expect(inputDigest({ a: 1 })).not.toBe(inputDigest({ a: 2 }));
  });
});
