import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel/kernel.js';
import type { Provider, ProviderRequest, ProviderStreamEvent, Message } from '../../dist/core/index.js';
import { makeProject } from '../support/project.js';
import { startFakeLlm, type FakeLlm } from '../../dist/core/testing/index.js';

export { startFakeLlm, type FakeLlm };

/** Retries fast enough for tests, deterministic (no jitter). */
export const FAST_RETRIES = { initialDelayMs: 20, factor: 2, maxDelayMs: 100, jitter: 0 };

export type ProviderName = 'anthropic' | 'openai';

/** The base URL a provider's SDK expects for the fake server. */
export function baseURLFor(fake: FakeLlm, name: ProviderName): string {
  return name === 'anthropic' ? fake.anthropicBaseURL : fake.openaiBaseURL;
}

/** Boots a kernel with the built-in plugins and this `provider:` config, and returns its provider. */
export async function providerFrom(provider: Record<string, unknown>): Promise<Provider> {
  const dir = makeProject({ '.assistantrc.json': JSON.stringify({ provider }) });
  const config = await loadConfig({ cwd: dir, noUserConfig: true });
  const kernel = await createKernel({ config, headless: true, logLevel: 'silent' });
  return kernel.provider();
}

/** The provider `name` pointed at the fake server, with fast retries. */
export function fakeProvider(fake: FakeLlm, name: ProviderName, extra: Record<string, unknown> = {}): Promise<Provider> {
  return providerFrom({ name, model: name === 'anthropic' ? 'claude-sonnet-4-6' : 'gpt-4.1', baseURL: baseURLFor(fake, name), retries: FAST_RETRIES, ...extra });
}

/** A request with one user message. */
export function ask(text: string, extra: Partial<ProviderRequest> = {}): ProviderRequest {
  const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text }] }];
  return { model: '', system: [{ id: 'base', text: 'You are a test.' }], messages, tools: [], maxTokens: 1024, ...extra };
}

/** A tool definition for requests. */
export const READ_TOOL = {
  name: 'Read',
  description: 'Read a file',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

/** Every event of a stream. */
export async function collect(stream: AsyncIterable<ProviderStreamEvent>): Promise<ProviderStreamEvent[]> {
  const events: ProviderStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** The stream's error, or a failure when it did not throw. */
export async function streamError(stream: AsyncIterable<ProviderStreamEvent>): Promise<{ error: any; events: ProviderStreamEvent[] }> {
  const events: ProviderStreamEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
  } catch (error) {
    return { error, events };
  }
  throw new Error(`the stream did not fail; events: ${JSON.stringify(events.map((e) => e.type))}`);
}

/** The final stop event of a list. */
export function stopOf(events: ProviderStreamEvent[]): Extract<ProviderStreamEvent, { type: 'stop' }> {
  const stop = events[events.length - 1];
  if (stop?.type !== 'stop') throw new Error(`no stop event at the end: ${JSON.stringify(events.map((e) => e.type))}`);
  return stop;
}

/** The text of all text deltas. */
export function textOf(events: ProviderStreamEvent[]): string {
  return events.map((e) => (e.type === 'text_delta' ? e.text : '')).join('');
}
