import type { Readable, Transform } from 'node:stream';

/** A decoder for one content coding; node:zlib is loaded only when a response is compressed. */
function decoderFor(coding: string): Transform | undefined {
  const zlib = process.getBuiltinModule('node:zlib');
  // Like fetch: a truncated or flushed-early compressed body yields what arrived, without an error.
  const lenient = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  if (coding === 'gzip' || coding === 'x-gzip') return zlib.createGunzip(lenient);
  if (coding === 'deflate') return zlib.createInflate(lenient);
  if (coding === 'br') return zlib.createBrotliDecompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
  return undefined;
}

/**
 * The decoded body of a response, as `fetch` hands it out: the codings of `content-encoding`
 * undone in reverse order. An unknown coding leaves the body as it came (fetch does the same).
 * Errors of the raw stream are carried to the decoded one.
 */
export function decodeBody(raw: Readable, contentEncoding: string | undefined): Readable {
  const codings = (contentEncoding ?? '').toLowerCase().split(',').map((coding) => coding.trim()).filter((coding) => coding && coding !== 'identity');
  if (codings.length === 0) return raw;
  const decoders = codings.reverse().map(decoderFor);
  if (decoders.some((decoder) => !decoder)) return raw;
  let out: Readable = raw;
  for (const decoder of decoders as Transform[]) {
    const from = out;
    from.on('error', (error) => decoder.destroy(error));
    out = from.pipe(decoder);
  }
  return out;
}
