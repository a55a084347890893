// Which approvals were still waiting when a session moved: the `approvals` side channel read against the history.
import { describe, expect, it } from 'vitest';
import type { Json, Message } from '../../dist/core/index.js';
import { describeOwner } from '../../dist/core/kits/agent/index.js';
import { pendingApprovals, pendingNote } from '../../dist/plugins/hand-off/pending.js';

const asked = (where: string, ...ids: string[]): Json => ({ kind: 'asked', time: 1, where, calls: ids.map((callId) => ({ callId, tool: 'Write', what: `${callId}.txt` })) });
const result = (callId: string, origin?: 'system-note'): Message => ({
  role: 'tool',
  content: [{ type: 'tool_result', toolCallId: callId, content: [{ type: 'text', text: 'r' }] }],
  ...(origin ? { meta: { time: 1, origin } } : {}),
});

describe('pending approvals', () => {
  it('are the calls asked and never allowed whose only result is the resume repair, or none', () => {
    const records = [asked('terminal on host a (pid 1)', 'w1', 'w2', 'w3', 'w4'), { kind: 'allowed', callIds: ['w2'] }, 'junk', { kind: 'asked' }];
    const history = [result('w1', 'system-note'), result('w2', 'system-note'), result('w3')];
    // w1: repaired, never allowed → pending; w2: allowed (may have run) → not; w3: a real result → not; w4: no result → pending.
    expect(pendingApprovals(records, history)).toEqual([{ where: 'terminal on host a (pid 1)', calls: [expect.objectContaining({ callId: 'w1' }), expect.objectContaining({ callId: 'w4' })] }]);
    expect(pendingNote(pendingApprovals(records, history))).toContain('waiting in terminal on host a (pid 1): Write w1.txt; Write w4.txt');
  });

  it('are told once: calls carried into a surface are not pending again', () => {
    expect(pendingApprovals([asked('x', 'w1'), { kind: 'carried', callIds: ['w1'] }], [])).toEqual([]);
  });

  it('never prints control characters another surface put in a lease or a record', () => {
    const forged = { kind: 'serve\x1b]0;pwned\x07', label: 'x\x1b[2J', host: 'h\r\n', pid: 1, surface: 's' };
    expect(describeOwner(forged)).not.toMatch(/[\x00-\x1f\x7f]/);
    expect(describeOwner({ ...forged, kind: undefined, surface: 'a\x1b[31mb' })).not.toMatch(/[\x00-\x1f]/);
    const note = pendingNote([{ where: 'w\x1b[2J', calls: [{ callId: 'c', tool: 'Bash', what: 'echo\x1b[31m hi\nrm' }] }]);
    expect(note).not.toMatch(/[\x00-\x1f]/);
    expect(note).toContain('Bash echo');
  });
});
