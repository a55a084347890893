// The how-to-allow hint comes from the layer that decided: a third-party policy gives its own, or
// none, and the generic "permissions.allow or a --permission-mode" only when the layer says nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitProject, requestText, runHeadless, startFakeLlm, type FakeLlm } from './support.js';

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ fixture: { turns: [] } });
});
afterAll(() => fake.close());

/** A release-freeze policy as a team would write it: its own words for how to get each call through. */
const FREEZE_PLUGIN = `
import { Stage } from '@assistant-cli/assistant';
const decisions = {
  'make deploy': { behavior: 'deny', reason: 'no deploys on Fridays', hint: 'wait until Monday, or ask the release manager to lift the freeze' },
  'make tag': { behavior: 'deny', reason: 'tags are frozen' },
  'make publish': { behavior: 'ask', reason: 'publishing needs the release manager', hint: '' },
  'make bump': { behavior: 'ask', reason: 'a version bump needs a second pair of eyes', hint: 'run it from the release checklist' },
};
export default {
  name: 'release-freeze',
  apply(kernel) {
    kernel.hooks.permission.tapPromise({ name: 'release-freeze', stage: Stage.POLICY }, async (request) => {
      const decision = decisions[request.command];
      return decision ? { ...decision, layer: 'release-freeze' } : undefined;
    });
  },
};
`;

const CALLS = ['make deploy', 'make tag', 'make publish', 'make bump', 'touch built.txt'];

describe('assistant -p: the deciding layer supplies the how-to-allow hint', () => {
  it('prints the policy’s own hint, none when it gives an empty one, and the generic one only when it says nothing', async () => {
    fake.setFixture({
      turns: [
        { name: 'release', when: { userText: 'release' }, reply: { toolCalls: CALLS.map((command, i) => ({ id: `call_${i}`, name: 'Bash', input: { command } })) } },
        { name: 'report', when: { toolResultFor: 'call_4' }, reply: { text: 'Nothing was released.' } },
      ],
      fallback: { text: 'UNEXPECTED REQUEST' },
    });
    fake.reset();
    const dir = gitProject({
      '.assistantrc': JSON.stringify({ plugins: ['./release-freeze.mjs'], limits: { maxToolFailures: 10 } }),
      'release-freeze.mjs': FREEZE_PLUGIN,
      Makefile: 'deploy:\n\techo deployed\n',
    });
    const r = await runHeadless(fake, dir, ['--trust-project', 'release']);
    expect(r.stdout).toBe('Nothing was released.\n');
    expect(r.code).toBe(0);
    const lines = r.stderr.split('\n').filter(Boolean);
    const approval = 'and no one can approve in headless mode';
    expect(lines).toEqual(
      expect.arrayContaining([
        'denied: Bash: no deploys on Fridays; wait until Monday, or ask the release manager to lift the freeze',
        'denied: Bash: tags are frozen',
        `denied: Bash: Bash needs approval (publishing needs the release manager) ${approval}; do the task another way`,
        `denied: Bash: Bash needs approval (a version bump needs a second pair of eyes) ${approval}; run it from the release checklist, or do the task another way`,
      ]),
    );
    // The built-in fallback gives no hint of its own: the generic one.
    expect(lines.find((l) => l.includes('touch'))).toMatch(/allow it with a rule in permissions\.allow or a --permission-mode, or do the task another way$/);
    expect(lines).toHaveLength(5);
    // The model reads the same answers in its tool results.
    const seen = requestText(fake.requests[1]!);
    expect(seen).toContain('run it from the release checklist, or do the task another way');
    expect(seen).toContain('publishing needs the release manager) and no one can approve in headless mode; do the task another way');
    expect(seen.match(/permissions\.allow/g)).toHaveLength(1);
  });
});
