import { statSync, type Stats } from 'node:fs';

/** How a text file's bytes map to characters; kept so a rewrite does not change it. */
export type TextEncoding = 'utf8' | 'utf8-bom' | 'utf16le' | 'utf16be' | 'latin1';

/** SHA-256 of a file's bytes: what "the version the model saw" means (node:crypto loads with the first, not with this module). */
export function checksum(bytes: Uint8Array): string {
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(bytes).digest('hex');
}

/** The file's stats, or undefined when nothing is there. */
export function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** Bytes that mark text as UTF-16 (which has NULs but is not binary). */
function bomEncoding(bytes: Uint8Array): TextEncoding | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf8-bom';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf16be';
  return undefined;
}

/** Binary the way git judges it: a NUL byte in the first 8000 bytes (UTF-16 with a BOM excepted). */
export function looksBinary(bytes: Uint8Array): boolean {
  if (bomEncoding(bytes)?.startsWith('utf16')) return false;
  // indexOf, not a loop: a byte loop this long gets optimized by V8 in every short run.
  return bytes.subarray(0, 8000).indexOf(0) !== -1;
}

/** Decodes text: BOMs honoured, UTF-8 when valid, else Latin-1 (every byte maps, so nothing is lost). */
export function decodeText(bytes: Uint8Array): { text: string; encoding: TextEncoding } {
  const bom = bomEncoding(bytes);
  if (bom === 'utf8-bom') return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: bom };
  if (bom === 'utf16le') return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: bom };
  if (bom === 'utf16be') return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encoding: bom };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf8' };
  } catch {
    return { text: Buffer.from(bytes).toString('latin1'), encoding: 'latin1' };
  }
}

/** Encodes text back into the encoding the file had. */
export function encodeText(text: string, encoding: TextEncoding): Buffer {
  switch (encoding) {
    case 'utf8-bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    case 'utf16le':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    case 'utf16be': {
      const body = Buffer.from(text, 'utf16le');
      body.swap16();
      return Buffer.concat([Buffer.from([0xfe, 0xff]), body]);
    }
    case 'latin1':
      return Buffer.from(text, 'latin1');
    default:
      return Buffer.from(text, 'utf8');
  }
}
