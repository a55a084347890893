import { BaseAnthropic } from '@anthropic-ai/sdk/client';
import { Messages } from '@anthropic-ai/sdk/resources/messages/messages';

/**
 * The SDK's client with only the Messages resource, the one the provider calls (create, stream,
 * countTokens). The SDK's own `Anthropic` class builds every resource (beta, files, skills, …), and
 * bundled, that is four times the code: ~20 ms of CPU and 4 MiB on every run that sends a request.
 */
export class MessagesClient extends BaseAnthropic {
  messages: Messages = new Messages(this);
}

// The errors the provider kit tells apart by name (classifySdkError). The SDK names them itself, so
// its bundle needs no kept class names (test/providers/anthropic-error-names.test.ts).
export { APIConnectionError, APIConnectionTimeoutError, APIError } from '@anthropic-ai/sdk/core/error';
