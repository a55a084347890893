/** What the Anthropic provider needs only once it sends a request: imported on first use (provider.ts). */
export { toWireRequest } from './convert.js';
export { translateMessage, translateStream } from './translate.js';
export { loadAnthropicSdk } from './sdk.js';
