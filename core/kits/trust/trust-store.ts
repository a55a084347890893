import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { projectDataDir } from '../../util/paths.js';
import { writeFileAtomicSync, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../fs/index.js';

/**
 * What the user trusted of one project, kept in the user's data directory (0600), never in the
 * project: a command the agent runs in the project cannot plant a record there.
 */
export interface TrustRecord {
  /** The project root it was given for (symlinks resolved). */
  root: string;
  /** Digest of the project's settings that widen what the agent may do, as the user trusted them. */
  config?: string;
  /** Digests of "always allow" rules in the project's local settings that the user gave (by answering, or by `assistant trust`). */
  localRules?: string[];
  /** When the record last changed (ms since the epoch). */
  at: number;
}

/** sha256 of a text, hex. */
export const sha256 = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

/** Where the trust record of a project is kept. */
export function trustFile(root: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(projectDataDir(root, env), 'trust.json');
}

/** The project's trust record, or undefined when there is none (an unreadable one counts as none: fails closed). */
export function readTrust(root: string, env: NodeJS.ProcessEnv = process.env): TrustRecord | undefined {
  try {
    const value = JSON.parse(readFileSync(trustFile(root, env), 'utf8')) as TrustRecord;
    if (!value || typeof value !== 'object' || value.root !== root) return undefined;
    const localRules = Array.isArray(value.localRules) ? value.localRules.filter((d) => typeof d === 'string') : [];
    return { root, at: Number(value.at) || 0, localRules, ...(typeof value.config === 'string' ? { config: value.config } : {}) };
  } catch {
    return undefined;
  }
}

/** Changes the project's trust record (written whole, 0600, then renamed over the old one). */
export function updateTrust(root: string, change: (record: TrustRecord) => TrustRecord, env: NodeJS.ProcessEnv = process.env): TrustRecord {
  const file = trustFile(root, env);
  const next = { ...change(readTrust(root, env) ?? { root, at: 0 }), root, at: Date.now() };
  mkdirSync(join(file, '..'), { recursive: true, mode: PRIVATE_DIR_MODE });
  writeFileAtomicSync(file, JSON.stringify(next, null, 2) + '\n', { mode: PRIVATE_FILE_MODE });
  return next;
}

/** Forgets everything trusted of the project. */
export function revokeTrust(root: string, env: NodeJS.ProcessEnv = process.env): void {
  rmSync(trustFile(root, env), { force: true });
}

/** Adds the digests of allow rules the user gave to the project's record. */
export function trustLocalRules(root: string, rules: readonly string[], env: NodeJS.ProcessEnv = process.env): void {
  updateTrust(root, (record) => ({ ...record, localRules: [...new Set([...(record.localRules ?? []), ...rules.map(sha256)])] }), env);
}
