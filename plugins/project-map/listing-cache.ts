import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { projectHash, userDirs } from '../../core/index.js';
import { PRIVATE_DIR_MODE, writeFileAtomicSync } from '../../core/kits/fs/index.js';
import { readGitignore, readListing, type Listing, type ScanSource } from './scan.js';

/**
 * The project map of the last start, kept in the user's cache folder with what it was made from:
 * each folder's listing and the text of each .gitignore read. A start whose folders and .gitignore
 * files are unchanged takes the map as it is, without listing the tree again (a 2,000-file project:
 * ~40 readdir calls and the rendering, ~4 ms; a large one, tens of ms). A folder is taken unchanged
 * without being listed when its inode, size, modification and change times are those recorded, and
 * those times were already 2 s old when it was listed (a change within the same clock tick as the
 * listing could leave the times as they were); any other folder is listed and compared. A .gitignore
 * is always read again (editing one changes no folder's times). The cache folder is a control
 * folder (core/kernel/control-files.ts): a tool cannot write it without a person.
 */

/** Bump when the file's shape or the scan's rules change. */
const VERSION = 1;
/** A folder changed less than this before it was listed is listed again next time. */
const SETTLED_MS = 2000;
/** A cache file larger than this is ignored (the project is rescanned and the file rewritten). */
const MAX_BYTES = 32 * 1024 * 1024;

/**
 * One folder as listed: its stamp ('' when it was too fresh to trust), its names joined by NUL (the
 * one character no name holds: one string parses and checks faster than thousands), and `1`/`0`
 * for folder or not, per name.
 */
interface CachedFolder {
  s: string;
  n: string;
  d: string;
}

interface CacheFile {
  v: number;
  root: string;
  /** The map's options: another set makes another map. */
  key: string;
  folders: Record<string, CachedFolder>;
  ignores: Record<string, string>;
  /** The map's text, or null when the project had nothing to list. */
  map: string | null;
}

const stampOf = (path: string): { stamp: string; settled: boolean } | undefined => {
  try {
    const s = statSync(path);
    return { stamp: `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`, settled: Date.now() - Math.max(s.mtimeMs, s.ctimeMs) >= SETTLED_MS };
  } catch {
    return undefined;
  }
};

const flags = (listing: Listing) => listing.dirs.map((d) => (d ? '1' : '0')).join('');
const folderOf = (stamp: string, listing: Listing): CachedFolder => ({ s: stamp, n: listing.names.join('\0'), d: flags(listing) });
const sameListing = (listing: Listing, cached: CachedFolder) => listing.names.join('\0') === cached.n && flags(listing) === cached.d;
const listingOf = (cached: CachedFolder): Listing => ({ names: cached.n ? cached.n.split('\0') : [], dirs: [...cached.d].map((c) => c === '1') });

/** How many names a folder's joined names hold, counted without splitting them (a start checks thousands). */
function nameCount(joined: string): number {
  if (!joined) return 0;
  let count = 1;
  for (let at = joined.indexOf('\0'); at !== -1; at = joined.indexOf('\0', at + 1)) count++;
  return count;
}

/** Whether one of a folder's joined names is `name`. */
const hasName = (joined: string, name: string) => `\0${joined}\0`.includes(`\0${name}\0`);

function isCachedFolder(value: unknown): value is CachedFolder {
  const f = value as CachedFolder;
  return typeof f === 'object' && f !== null && typeof f.s === 'string' && typeof f.n === 'string' && typeof f.d === 'string' && nameCount(f.n) === f.d.length;
}

function readCache(file: string, root: string, key: string): CacheFile | undefined {
  try {
    if (statSync(file).size > MAX_BYTES) return undefined;
    const data = JSON.parse(readFileSync(file, 'utf8')) as CacheFile;
    const valid =
      data?.v === VERSION &&
      data.root === root &&
      data.key === key &&
      (typeof data.map === 'string' || data.map === null) &&
      typeof data.folders === 'object' && data.folders !== null &&
      typeof data.ignores === 'object' && data.ignores !== null &&
      Object.values(data.folders).every(isCachedFolder) &&
      Object.values(data.ignores).every((text) => typeof text === 'string');
    return valid ? data : undefined;
  } catch {
    return undefined;
  }
}

/** The cache of one project's map under one set of options. */
export class MapCache {
  private readonly file: string;
  private readonly cached: CacheFile | undefined;
  /** What this start listed and read, written back after a scan. */
  private readonly folders: Record<string, CachedFolder> = {};
  private readonly ignores: Record<string, string> = {};

  constructor(
    private readonly root: string,
    private readonly key: string,
    dir = join(userDirs().cache, 'project-map'),
  ) {
    this.file = join(dir, `${projectHash(root)}.json`);
    this.cached = readCache(this.file, root, key);
  }

  /** The map of the last start when nothing it was made from has changed (null: an empty project); undefined otherwise. */
  unchanged(): string | null | undefined {
    const cached = this.cached;
    if (!cached) return undefined;
    for (const [rel, folder] of Object.entries(cached.folders)) {
      const path = rel ? join(this.root, rel) : this.root;
      const now = stampOf(path);
      if (!now) return undefined;
      if (!(folder.s && now.stamp === folder.s && now.settled)) {
        const listing = readListing(path);
        if (!listing || !sameListing(listing, folder)) return undefined;
      }
      // Read again whatever it was: unreadable then, it may be a file now.
      if (hasName(folder.n, '.gitignore') && readGitignore(path) !== cached.ignores[rel]) return undefined;
    }
    return cached.map;
  }

  /** The file system, with the listings of folders unchanged since the last start taken from the cache; records what it reads. */
  readonly source: ScanSource = {
    list: (path, rel) => {
      const before = stampOf(path);
      const cached = this.cached?.folders[rel];
      let listing: Listing | undefined;
      if (cached && before?.settled && cached.s === before.stamp) listing = listingOf(cached);
      else listing = readListing(path);
      // The stamp taken before the listing: a change after it leaves newer times than recorded.
      if (listing) this.folders[rel] = folderOf(before?.settled ? before.stamp : '', listing);
      return listing;
    },
    gitignore: (path, rel) => {
      const text = readGitignore(path);
      if (text !== undefined) this.ignores[rel] = text;
      return text;
    },
  };

  /** Keeps this start's map and what it was made from (not flushed: a lost or stale file only costs a scan). */
  save(map: string | null): void {
    const data: CacheFile = { v: VERSION, root: this.root, key: this.key, folders: this.folders, ignores: this.ignores, map };
    try {
      mkdirSync(dirname(this.file), { recursive: true, mode: PRIVATE_DIR_MODE });
      writeFileAtomicSync(this.file, JSON.stringify(data), { flush: false });
    } catch {
      // A read-only or full cache folder: the next start scans again.
    }
  }
}
