import { currentOwner, definePlugin, Stage, type Json, type OriginEvent } from '../../core/index.js';
import { APPROVALS_CHANNEL, askedRecord, pendingApprovals, pendingNote, type ApprovalRecord } from './pending.js';

/**
 * Hand-off between surfaces: approvals a surface asks are noted beside the session (side channel
 * `approvals`), so when another surface takes the session over while a person was still being
 * asked, the new surface tells the model and the user which calls waited and did not run; the
 * model calls them again and they are asked here.
 */
export default definePlugin({
  name: 'hand-off',
  version: '1.0.0',
  apply(kernel, _options, { logger }) {
    const note = (sessionId: string, record: ApprovalRecord) => kernel.store().appendRecords(sessionId, APPROVALS_CHANNEL, [record as unknown as Json]);
    const notices = new Map<string, string>();

    // First, and awaited: the note is durable before anyone is asked, so a take-over cannot miss it. Abstains.
    kernel.hooks.approval.tapPromise({ name: 'hand-off', stage: Stage.FIRST }, async (items) => {
      const sessionId = items[0]?.request.sessionId;
      // Imported on use: booting (every start, `--help` included) does not load the agent kit.
      const { describeOwner } = await import('../../core/kits/agent/index.js');
      const record = askedRecord(items, describeOwner(currentOwner()));
      if (sessionId && record) await note(sessionId, record).catch((error) => logger.debug(`could not note the approvals asked: ${(error as Error).message}`));
      return undefined;
    });

    // Only a yes is noted: a call allowed may have run even if its result never reached the store. A
    // no (a person's, or the denial a surface gives its open questions as it leaves after losing
    // the session) never runs anything, so it leaves the call pending for the next surface.
    kernel.hooks.event.tap('hand-off', (event: OriginEvent) => {
      if (event.type !== 'approval' || event.answer.behavior !== 'allow' || !event.sessionId || event.agentId || !event.request.callId) return;
      void note(event.sessionId, { kind: 'allowed', callIds: [event.request.callId] }).catch((error) => logger.debug(`could not note an answer: ${(error as Error).message}`));
    });

    kernel.hooks.sessionOpen.tapPromise('hand-off', async (session, info) => {
      if (info.source !== 'resume') return;
      let records: Json[];
      try {
        records = await kernel.store().readRecords(session.info.id, APPROVALS_CHANNEL);
      } catch {
        return; // no store (persistence.store: none): nothing was noted
      }
      const pending = pendingApprovals(records, session.messages);
      if (!pending.length) return;
      const text = pendingNote(pending);
      await session.record({ type: 'message', message: { role: 'user', content: [{ type: 'text', text }], meta: { time: Date.now(), origin: 'system-note' } } });
      await note(session.info.id, { kind: 'carried', callIds: pending.flatMap((b) => b.calls.map((c) => c.callId)) });
      notices.set(session.info.id, text);
    });

    // Shown once observers listen (the UI, headless output attach after the session opens).
    kernel.hooks.turnStart.tapPromise('hand-off', async (turn) => {
      const text = !turn.agentId && turn.sessionId ? notices.get(turn.sessionId) : undefined;
      if (!text) return;
      notices.delete(turn.sessionId!);
      kernel.hooks.event.call({ type: 'notice', level: 'warn', message: text.replace(/^Note: /, ''), sessionId: turn.sessionId });
    });
  },
});
