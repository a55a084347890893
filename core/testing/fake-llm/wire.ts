// What the two wire formats have in common, as the server uses them.
import type { WireBody } from './prompt-cache.js';

/** One server-sent event: Anthropic names its events, OpenAI sends data only. */
export interface SseEvent {
  event?: string;
  data: WireBody;
}

/** A request the real API would refuse: the status and message it would answer with. */
export interface WireRefusal {
  status: number;
  message: string;
}
