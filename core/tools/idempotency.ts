import { LRUCache } from 'lru-cache';
import type { ToolResultPart } from '../types/messages.js';

/** Sessions whose recorded results are kept at once (each up to `perSession` results). */
const SESSIONS = 64;

/**
 * Results by tool-call id, per session: a replayed request (same call id) gets the recorded
 * result, or waits for the run already under way, instead of running the call again.
 */
export class IdempotencyCache {
  private readonly sessions = new LRUCache<string, LRUCache<string, Promise<ToolResultPart>>>({ max: SESSIONS });

  constructor(private readonly perSession = 500) {}

  get(session: string, callId: string): Promise<ToolResultPart> | undefined {
    return this.sessions.get(session)?.get(callId);
  }

  set(session: string, callId: string, result: Promise<ToolResultPart>): void {
    let calls = this.sessions.get(session);
    if (!calls) {
      calls = new LRUCache({ max: this.perSession });
      this.sessions.set(session, calls);
    }
    calls.set(callId, result);
  }

  /** Forgets a call (one that was cancelled, so a retry really runs). */
  delete(session: string, callId: string): void {
    this.sessions.get(session)?.delete(callId);
  }
}
