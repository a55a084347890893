/** A tool call's input as parsed from the JSON the model streamed. */
export interface ParsedToolInput {
  /** The parsed input (`{}` when it could not be parsed). */
  input: Record<string, unknown>;
  /** Why the input cannot be trusted (cut off, not JSON, not an object): the call must not run. */
  error?: string;
}

/**
 * Parses the complete JSON text of a tool call's input. Streams can end mid-input (max_tokens, a
 * broken connection): SDK helpers then hand back a partial object or invalid JSON, and running the
 * tool with fields missing would do the wrong thing. Anything but a complete JSON object is
 * reported in `error`, with `input` left empty, so the loop can send the model an error instead.
 */
export function parseToolInput(json: string, cutOff = false): ParsedToolInput {
  const text = json.trim();
  if (cutOff)
    return {
      input: {},
      error: `the tool input was cut off before it was complete (${text.length} characters received); the call was not run: send it again, smaller if it was long`,
    };
  if (text === '') return { input: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      input: {},
      error: `the tool input is not complete JSON (${(error as Error).message}; ${text.length} characters received), probably cut off; the call was not run: send it again`,
    };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { input: {}, error: `the tool input must be a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}` };
  return { input: value as Record<string, unknown> };
}
