/** What the OpenAI provider needs only once it counts or sends a request: imported on first use (provider.ts). */
export { toWireRequest } from './convert.js';
export { translateCompletion, translateStream } from './translate.js';
export { tokenCounterFor } from './tokenizer.js';
export { loadOpenAiSdk } from './sdk.js';
