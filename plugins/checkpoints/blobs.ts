import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { deflateRaw, deflateRawSync, inflateRawSync } from 'node:zlib';
import { AssistantError, type Json, type SessionStore } from '../../core/index.js';
import { CHECKPOINT_ERRORS } from './errors.js';
import { GEAR } from './gear-table.js';

/** `deflateRaw` as a promise, made on first use: a run that stores no blob never calls into zlib. */
let deflateAsync: ((data: Uint8Array) => Promise<Buffer>) | undefined;

/**
 * Contents up to this size are deflated on the spot (well under a millisecond): the async path costs
 * a run ~3 ms of CPU more to set up. Larger ones are deflated on libuv's threads, so a big file's
 * checkpoint does not hold up the event loop.
 */
const DEFLATE_INLINE_MAX = 64 * 1024;

/** The side channel holding chunk data, each distinct chunk once: `{ h, z }` (hash, deflated base64). */
export const BLOB_CHANNEL = 'checkpoint-blobs';

/** A stored content: its hash and size, and the chunks it is made of, in order. */
export interface BlobRef {
  hash: string;
  size: number;
  chunks: string[];
}

// Content-defined chunking (a gear rolling hash, as restic and borg do): a cut depends on the bytes
// around it, not on offsets, so an edit changes only the chunks it touches and a file edited many
// times shares almost all its chunks between versions.
const MIN_CHUNK = 2 * 1024;
const MAX_CHUNK = 32 * 1024;
const CUT_MASK = 0x1fff; // about 8 KiB between cuts on average

/** The content's cut points: chunk end offsets. */
export function chunkEnds(data: Uint8Array): number[] {
  const ends: number[] = [];
  let start = 0;
  let h = 0;
  for (let i = 0; i < data.length; i++) {
    h = ((h << 1) + GEAR[data[i]!]!) >>> 0;
    const length = i + 1 - start;
    if ((length >= MIN_CHUNK && (h & CUT_MASK) === 0) || length >= MAX_CHUNK) {
      ends.push(i + 1);
      start = i + 1;
      h = 0;
    }
  }
  if (start < data.length || data.length === 0) ends.push(data.length);
  return ends;
}

/** SHA-256 of no bytes (base64url), written out so that referring to the empty content hashes nothing. */
const EMPTY_HASH = '47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU';

/**
 * A ref to the empty content that names no chunk: nothing is stored for it, so a prompt with no
 * messages to keep writes no blob. The writer cuts every content it stores into at least one chunk
 * (an empty file's is one chunk of no bytes), so a ref with no chunks means this and nothing else.
 */
export function emptyRef(): BlobRef {
  return { hash: EMPTY_HASH, size: 0, chunks: [] };
}

/** True for a ref of no chunks that is exactly `emptyRef()`: no bytes, the empty content's hash. */
export function isEmptyRef(ref: BlobRef): boolean {
  return ref.chunks.length === 0 && ref.size === 0 && ref.hash === EMPTY_HASH;
}

/** The hash contents and chunks are named by: SHA-256, base64url. */
export function contentHash(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('base64url');
}

/** Writes contents into a session's blob channel, each distinct chunk once per session. */
export class BlobWriter {
  constructor(
    private readonly store: SessionStore,
    private readonly sessionId: string,
    /** Chunks already stored (from the session's checkpoint index). */
    private readonly known: Set<string>,
  ) {}

  private queue: Promise<unknown> = Promise.resolve();

  /** Stores `data` (only its new chunks) and returns its reference once the chunks are durable. */
  async put(data: Uint8Array): Promise<BlobRef> {
    return (await this.putAll([data]))[0]!;
  }

  /** Stores several contents with one durable append. One call at a time, so a chunk is referenced only once stored. */
  putAll(contents: Uint8Array[]): Promise<BlobRef[]> {
    const next = this.queue.then(() => this.write(contents));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async write(contents: Uint8Array[]): Promise<BlobRef[]> {
    const fresh: Json[] = [];
    const refs: BlobRef[] = [];
    for (const data of contents) {
      const chunks: string[] = [];
      let start = 0;
      for (const end of chunkEnds(data)) {
        const piece = data.subarray(start, end);
        start = end;
        const h = contentHash(piece);
        chunks.push(h);
        if (this.known.has(h)) continue;
        this.known.add(h);
        const deflated = data.length <= DEFLATE_INLINE_MAX ? deflateRawSync(piece) : await (deflateAsync ??= promisify(deflateRaw))(piece);
        fresh.push({ h, z: deflated.toString('base64') });
      }
      refs.push({ hash: contentHash(data), size: data.length, chunks });
    }
    if (fresh.length) {
      try {
        await this.store.appendRecords(this.sessionId, BLOB_CHANNEL, fresh);
      } catch (error) {
        for (const record of fresh) this.known.delete((record as { h: string }).h);
        throw error;
      }
    }
    return refs;
  }
}

/** Every stored chunk of a session, by hash (still deflated). */
export async function readChunks(store: SessionStore, sessionId: string): Promise<Map<string, string>> {
  const chunks = new Map<string, string>();
  for (const record of await store.readRecords(sessionId, BLOB_CHANNEL)) {
    const r = record as { h?: unknown; z?: unknown };
    if (typeof r?.h === 'string' && typeof r.z === 'string') chunks.set(r.h, r.z);
  }
  return chunks;
}

/** Puts a content back together, checking every chunk's hash and the whole content's; `what` names it in errors. */
export function assemble(ref: BlobRef, chunks: Map<string, string>, what: string): Buffer {
  const pieces: Buffer[] = [];
  for (const h of ref.chunks) {
    const z = chunks.get(h);
    if (z === undefined) throw corrupt(`${what}: a part of its saved content is missing from the session's checkpoint data`);
    let piece: Buffer;
    try {
      piece = inflateRawSync(Buffer.from(z, 'base64'));
    } catch {
      throw corrupt(`${what}: a part of its saved content is damaged (it does not decompress)`);
    }
    if (contentHash(piece) !== h) throw corrupt(`${what}: a part of its saved content is damaged (its hash does not match)`);
    pieces.push(piece);
  }
  const data = Buffer.concat(pieces);
  if (data.length !== ref.size || contentHash(data) !== ref.hash) throw corrupt(`${what}: its saved content does not match the hash recorded for it`);
  return data;
}

function corrupt(message: string): AssistantError {
  return new AssistantError(CHECKPOINT_ERRORS.ASSISTANT_CHECKPOINT_CORRUPT, `${message}; nothing was restored`, { plugin: 'checkpoints' });
}
