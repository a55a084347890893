import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

// Random ids (sessions, lock tokens, temporary names) straight from the kernel's generator: a run
// that needs nothing else of node:crypto then never loads it (~1.4 ms of a start). Where the device
// is missing or is not the kernel's generator (a container without /dev, a planted file, /dev/zero
// mounted in its place), node:crypto gives them: never a weaker source.
const DEVICE = '/dev/urandom';
/** Linux's generators, as device numbers (character 1:8 /dev/random, 1:9 /dev/urandom). */
const LINUX_GENERATORS = new Set([(1 << 8) | 8, (1 << 8) | 9]);
/** Bytes read ahead, so a start's handful of ids costs one read. */
const POOL_BYTES = 256;

let pool: Buffer = Buffer.alloc(0);
let offset = 0;

/** `size` bytes from the kernel's random device, or from node:crypto when the device is not usable. */
export function readKernelRandom(size: number, device = DEVICE): Buffer {
  let fd: number | undefined;
  try {
    fd = openSync(device, 'r');
    const stats = fstatSync(fd);
    if (!stats.isCharacterDevice() || (process.platform === 'linux' && !LINUX_GENERATORS.has(stats.rdev))) throw new Error(`${device} is not the kernel's generator`);
    const bytes = Buffer.allocUnsafe(size);
    for (let got = 0; got < size; ) {
      const read = readSync(fd, bytes, got, size - got, null);
      if (read <= 0) throw new Error(`${device} ended`);
      got += read;
    }
    return bytes;
  } catch {
    return process.getBuiltinModule('node:crypto').randomBytes(size);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** `size` cryptographically strong random bytes (each handed out once). */
export function secureRandomBytes(size: number): Buffer {
  if (offset + size > pool.length) {
    pool = readKernelRandom(Math.max(POOL_BYTES, size));
    offset = 0;
  }
  const bytes = Buffer.from(pool.subarray(offset, offset + size));
  pool.fill(0, offset, offset + size);
  offset += size;
  return bytes;
}

/** `size` strong random bytes as hex. */
export const secureRandomHex = (size: number): string => secureRandomBytes(size).toString('hex');

/** A random (version 4) UUID, as `crypto.randomUUID()` makes one. */
export function secureRandomUUID(): string {
  const bytes = secureRandomBytes(16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
