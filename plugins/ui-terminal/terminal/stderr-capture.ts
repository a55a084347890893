/**
 * While the UI owns the terminal, anything written to stderr (a plugin's log line, a Node
 * warning) would land in the middle of the live area and break it. When stderr is the same
 * terminal, its output is routed into the transcript instead, line by line. Returns the undo.
 */
export function captureStderr(stream: NodeJS.WriteStream, onLine: (line: string) => void): () => void {
  if (!stream.isTTY) return () => {};
  const original = stream.write;
  let partial = '';
  const write = (chunk: unknown, encoding?: unknown, callback?: unknown): boolean => {
    partial += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) onLine(line);
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') process.nextTick(done as () => void);
    return true;
  };
  stream.write = write as typeof stream.write;
  return () => {
    stream.write = original;
    if (partial) onLine(partial);
  };
}
