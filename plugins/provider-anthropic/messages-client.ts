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
