/** Image formats both providers accept, by their magic bytes. */
export function imageType(bytes: Uint8Array): string | undefined {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return 'image/webp';
  return undefined;
}

const SIGNATURES: Array<[string, number[]]> = [
  ['a PDF document', [0x25, 0x50, 0x44, 0x46]],
  ['a zip archive (or a format built on zip: jar, docx, xlsx)', [0x50, 0x4b, 0x03, 0x04]],
  ['a gzip archive', [0x1f, 0x8b]],
  ['an ELF executable or library', [0x7f, 0x45, 0x4c, 0x46]],
  ['a SQLite database', [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65]],
  ['a WebAssembly module', [0x00, 0x61, 0x73, 0x6d]],
  ['a Mach-O executable', [0xcf, 0xfa, 0xed, 0xfe]],
  ['a Windows executable', [0x4d, 0x5a]],
];

/** What the model is told instead of binary bytes. */
export function describeBinary(shown: string, bytes: Uint8Array): string {
  const kind = SIGNATURES.find(([, sig]) => sig.every((b, i) => bytes[i] === b))?.[0] ?? 'binary data';
  return `${shown} is a binary file (${bytes.length} bytes, looks like ${kind}); its bytes are not shown. Use Bash (file, xxd | head, unzip -l, ...) if you need to inspect it.`;
}
