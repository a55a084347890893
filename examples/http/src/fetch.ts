import { errorResult, textResult, type ToolResult } from '@assistant-cli/assistant';

/** What one Http call asks for. */
export interface HttpInput {
  url: string;
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
}

/** Content types shown as text; anything else is summarized, since the model cannot read bytes. */
const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|x-www-form-urlencoded)|[^;]*\+(json|xml))/i;

/** Reads at most `limit` bytes of a body, then stops the download. */
async function readCapped(response: Response, limit: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  if (!reader) return { bytes: new Uint8Array(), truncated: false };
  while (size <= limit) {
    const { done, value } = await reader.read();
    if (done) return { bytes: Buffer.concat(chunks), truncated: false };
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel();
  return { bytes: Buffer.concat(chunks).subarray(0, limit), truncated: true };
}

/**
 * Makes the request and describes the response for the model: status, content type, body. Redirects
 * are reported, never followed: the next URL must pass the permission check like any other.
 */
export async function fetchForModel(input: HttpInput, signal: AbortSignal, maxBytes: number): Promise<ToolResult> {
  const method = input.method ?? 'GET';
  let response: Response;
  try {
    response = await fetch(input.url, { method, headers: input.headers, body: input.body, redirect: 'manual', signal });
  } catch (error) {
    if (signal.aborted) throw error;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return errorResult('ASSISTANT_TOOL_FAILED', `${method} ${input.url} failed: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
  }
  const status = `HTTP ${response.status} ${response.statusText}`.trim();
  const type = response.headers.get('content-type') ?? 'unknown';
  const location = response.headers.get('location');
  const metadata = { status: response.status, url: input.url, contentType: type };
  if (location && response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    return textResult(`${status}\nlocation: ${new URL(location, input.url).href}\n\nRedirects are not followed: call Http again with that URL if you need it.`, metadata);
  }
  if (method === 'HEAD') return textResult(`${status}\ncontent-type: ${type}`, metadata);
  const { bytes, truncated } = await readCapped(response, maxBytes);
  const body = TEXT_TYPES.test(type)
    ? new TextDecoder().decode(bytes) + (truncated ? `\n[... cut at ${maxBytes} bytes (http.maxBytes)]` : '')
    : `[${truncated ? `more than ${maxBytes}` : bytes.byteLength} bytes of ${type}, not shown]`;
  const result = textResult(`${status}\ncontent-type: ${type}\n\n${body}`, { ...metadata, bytes: bytes.byteLength, truncated });
  return response.ok ? result : { ...result, isError: true };
}
