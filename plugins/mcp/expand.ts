import type { ServerConfig } from './schema.js';

/** `${NAME}` or `${NAME:-fallback}`. */
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** A `${VAR}` that has no value and no fallback, with where it was written. */
export interface MissingVariable {
  name: string;
  /** JSON pointer of the value below the server entry, e.g. `/env/GITHUB_TOKEN`. */
  pointer: string;
}

/** Replaces `${VAR}` / `${VAR:-fallback}` in one string; names without a value are collected in `missing`. */
export function expandString(text: string, env: NodeJS.ProcessEnv, pointer: string, missing: MissingVariable[]): string {
  return text.replace(REFERENCE, (whole, name: string, fallback: string | undefined) => {
    const value = env[name];
    // As in the shell: `:-` also replaces an empty value.
    if (fallback !== undefined) return value ? value : fallback;
    if (value !== undefined) return value;
    missing.push({ name, pointer });
    return whole;
  });
}

const escapeKey = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

function expandMap(map: Record<string, string> | undefined, env: NodeJS.ProcessEnv, base: string, missing: MissingVariable[]) {
  if (!map) return undefined;
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, expandString(v, env, `${base}/${escapeKey(k)}`, missing)]));
}

/**
 * The entry with every `${VAR}` expanded from `env` in the places secrets and paths go: command,
 * args, env, cwd, url and headers. Keys and other settings are taken as written.
 */
export function expandServer(config: ServerConfig, env: NodeJS.ProcessEnv): { config: ServerConfig; missing: MissingVariable[] } {
  const missing: MissingVariable[] = [];
  const out: ServerConfig = { ...config };
  if ('url' in out && 'url' in config) {
    out.url = expandString(config.url, env, '/url', missing);
    if (config.headers) out.headers = expandMap(config.headers, env, '/headers', missing);
  }
  if ('command' in out && 'command' in config) {
    out.command = expandString(config.command, env, '/command', missing);
    if (config.args) out.args = config.args.map((arg, i) => expandString(arg, env, `/args/${i}`, missing));
    if (config.env) out.env = expandMap(config.env, env, '/env', missing);
    if (config.cwd) out.cwd = expandString(config.cwd, env, '/cwd', missing);
  }
  return { config: out, missing };
}
