import type { AssistantMessage, Message, StopReason, SystemSection, Usage } from './messages.js';
import type { JsonSchema } from './json-schema.js';

/** A tool as the model sees it: what providers convert to their wire format. */
export interface ToolSpec {
  /** The tool's name. */
  name: string;
  /** What the tool does and when to use it, for the model. */
  description: string;
  /** JSON Schema of the tool's input. */
  inputSchema: JsonSchema;
}

/** Where the stable, cacheable prefix of a request ends, as decided by the context strategy. */
export interface CacheHints {
  /** Mark the end of system + tools as a breakpoint. */
  system: boolean;
  /** Indices into `messages`; a breakpoint is placed after the last content block of each. */
  messages: number[];
}

/** Everything a provider needs for one model call, in the internal format. */
export interface ProviderRequest {
  /** The model to call. */
  model: string;
  /** The system prompt, in sections. */
  system: SystemSection[];
  /** The conversation as the context strategy shaped it. */
  messages: Message[];
  /** Tools the model may call. */
  tools: ToolSpec[];
  /** Most output tokens for the reply. */
  maxTokens: number;
  /** Sampling temperature; the provider's default when absent. */
  temperature?: number;
  /** Extended thinking / reasoning budget in tokens; absent or 0 means off. */
  thinkingBudget?: number;
  /** Text sequences that end the reply early (stop reason `stop_sequence`). */
  stopSequences?: string[];
  /** Where prompt-cache breakpoints go; providers without caching ignore it. */
  cache?: CacheHints;
  /** Provider-specific extras passed through untouched (headers, metadata, ...). */
  extra?: Record<string, unknown>;
}

/** The normalized events every provider stream yields. */
export type ProviderStreamEvent =
  | { type: 'message_start'; model: string }
  | { type: 'text_delta'; text: string }
  | { type: 'thinking_delta'; text: string }
  | { type: 'tool_call_start'; id: string; name: string }
  | { type: 'tool_call_delta'; id: string; partialJson: string }
  | {
      type: 'tool_call_end';
      id: string;
      name: string;
      input: Record<string, unknown>;
      /** Present when the input JSON was cut off or malformed: the call must not run. */
      inputError?: string;
    }
  | { type: 'usage'; usage: Usage }
  /**
   * A failed attempt that will be retried after `delayMs`. With `discard`, the failed attempt had
   * already streamed content: drop everything of this reply received so far, the retry starts it over.
   */
  | { type: 'retry'; attempt: number; delayMs: number; reason: string; code: string; discard?: boolean }
  | { type: 'stop'; reason: StopReason; message: AssistantMessage; usage: Usage };

/** A finished, non-streamed model response. */
export interface ProviderResponse {
  /** The reply. */
  message: AssistantMessage;
  /** Tokens used. */
  usage: Usage;
  /** Why the model stopped. */
  stopReason: StopReason;
}

/** What a provider can do; the loop and strategies adapt to it. */
export interface ProviderCapabilities {
  /** Accepts images in user messages and tool results. */
  images: boolean;
  /** Can stream its reasoning (extended thinking). */
  thinking: boolean;
  /** Honours cache breakpoints (`ProviderRequest.cache`). */
  promptCaching: boolean;
  /** Can make several tool calls in one reply. */
  parallelToolCalls: boolean;
}

/** Where a provider sends requests, and which setting said so (`assistant config show`). */
export interface ProviderEndpoint {
  /** The base URL. */
  url: string;
  /** Where it came from: `provider.baseURL (<file>)`, `environment (ANTHROPIC_BASE_URL)` or `default`. */
  source: string;
}

/** A model provider, created by a provider plugin for the name the config selects. */
export interface Provider {
  /** The name the config selects it by. */
  readonly name: string;
  /** Where requests go and why, when the provider can say. */
  readonly endpoint?: ProviderEndpoint;
  /** What it supports. */
  readonly capabilities: ProviderCapabilities;
  /** The model used when the config names none (`provider.model`). */
  readonly defaultModel: string;
  /** Streams one model call. Aborting `signal` stops the HTTP request promptly. */
  stream(request: ProviderRequest, signal?: AbortSignal): AsyncIterable<ProviderStreamEvent>;
  /** One non-streamed model call. */
  complete(request: ProviderRequest, signal?: AbortSignal): Promise<ProviderResponse>;
  /** Input tokens the request would use (an estimate where the provider has no exact count). */
  countTokens(request: Pick<ProviderRequest, 'model' | 'system' | 'messages' | 'tools'>): Promise<number>;
  /** The model's context window in tokens. */
  contextWindow(model: string): number;
  /** Releases sockets and timers. */
  close?(): Promise<void>;
}

/** The provider settings a provider plugin receives when asked to create a provider. */
export interface ProviderSettings {
  /** The provider name the config selected (`provider.name`). */
  name: string;
  /** The model the config selected, if any; providers fall back to their own default. */
  model?: string;
  /** Everything else under `provider` in the config (baseURL, apiKey env name, retries, ...). */
  options: Record<string, unknown>;
  /** The config file (or `defaults` / `flags`) that set the value at a JSON pointer such as `/provider/retries`, for errors. */
  sourceOf?: (pointer: string) => string;
}
