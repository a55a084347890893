/** What WebFetch does with an answer, by its media type. */
export type ContentKind = 'html' | 'text' | 'binary' | 'unknown';

const TEXT_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/javascript',
  'application/ecmascript',
  'application/x-javascript',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/x-sh',
  'application/graphql',
  'application/x-ndjson',
  'application/sql',
  'application/x-www-form-urlencoded',
]);

/** The media type of a Content-Type header, lower case, without parameters ('' when absent). */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Sorts a declared media type: HTML is converted, text passes through, anything else is binary; no type is sniffed. */
export function kindOf(type: string): ContentKind {
  if (!type) return 'unknown';
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type.startsWith('text/') || TEXT_TYPES.has(type) || type.endsWith('+json') || type.endsWith('+xml')) return 'text';
  return 'binary';
}

/** Sorts an answer that declared no type by its first bytes. */
export function sniff(body: Buffer): ContentKind {
  const head = body.subarray(0, 1024);
  if (head.includes(0)) return 'binary';
  const text = head.toString('latin1').trimStart().toLowerCase();
  return text.startsWith('<!doctype html') || text.startsWith('<html') ? 'html' : 'text';
}

/** The body as text, in the charset the header or (for HTML) a meta tag names; UTF-8 otherwise. */
export function decodeBody(body: Buffer, contentType: string | undefined, kind: ContentKind): string {
  const fromHeader = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
  const fromMeta = kind === 'html' ? /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(body.subarray(0, 4096).toString('latin1'))?.[1] : undefined;
  for (const label of [fromHeader, fromMeta, 'utf-8']) {
    if (!label) continue;
    try {
      return new TextDecoder(label).decode(body);
    } catch {
      // An unknown charset label: try the next source.
    }
  }
  return body.toString('utf8');
}
