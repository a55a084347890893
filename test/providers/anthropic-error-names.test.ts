// The Anthropic SDK's bundle does not keep class names (config/bundle-sdks.mjs): the provider kit
// tells the SDK's errors apart by `name` (classifySdkError), which the SDK sets itself. If an SDK
// update stopped naming them, connection failures and timeouts would read as protocol errors.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { classifySdkError } from '../../dist/core/kits/provider/index.js';

type ErrorClass = new (...args: any[]) => Error;
const sdk = createRequire(import.meta.url)('../../dist/vendor/anthropic-sdk.cjs') as Record<'APIError' | 'APIConnectionError' | 'APIConnectionTimeoutError', ErrorClass>;
const target = { provider: 'anthropic', model: 'claude-test', baseURL: 'http://127.0.0.1:9', keyEnv: 'ANTHROPIC_API_KEY' };

describe("the Anthropic SDK bundle's errors", () => {
  it('carry their names though the bundle minifies class names, and classify as the kit expects', () => {
    const connection = new sdk.APIConnectionError({ cause: new TypeError('fetch failed') });
    const timeout = new sdk.APIConnectionTimeoutError();
    // The classes themselves are minified: only `name` tells them apart.
    expect(sdk.APIConnectionError.name).not.toBe('APIConnectionError');
    expect([connection.name, timeout.name]).toEqual(['APIConnectionError', 'APIConnectionTimeoutError']);
    expect(classifySdkError(connection, target, 1000).code).toBe('ASSISTANT_PROVIDER_NETWORK');
    expect(classifySdkError(timeout, target, 1000).code).toBe('ASSISTANT_PROVIDER_TIMEOUT');
    const midStream = new sdk.APIError(undefined, { type: 'error', error: { type: 'overloaded_error', message: 'busy' } }, 'busy', undefined);
    expect(midStream.name).toBe('APIError');
    expect(classifySdkError(midStream, target, 1000)).toMatchObject({ code: 'ASSISTANT_PROVIDER_RATE_LIMITED', status: 529 });
  });
});
