import picomatch from 'picomatch';

/** Extra secret patterns and exceptions from the options. */
export interface SecretOptions {
  /** More secret file patterns (`*.tfvars`, `config/master.key`). */
  extra: string[];
  /** Files that look secret but are not (`.env.example`). */
  allow: string[];
}

/** Directories whose whole content is secret. */
const SECRET_DIRS = new Set(['.ssh', '.aws', '.gnupg', '.azure']);
/** Files that hold credentials, by exact name. */
const SECRET_NAMES = new Set(['.netrc', '_netrc', '.npmrc', '.pypirc', '.git-credentials', '.pgpass', '.dockercfg', '.htpasswd', '.vault-token', '.boto', '.s3cfg']);
/** Paths ending like this are secret (`.git/config` holds remote URLs with tokens). */
const SECRET_TAILS = [['etc', 'shadow'], ['etc', 'gshadow'], ['etc', 'master.passwd'], ['etc', 'sudoers'], ['.git', 'config'], ['.docker', 'config.json'], ['.kube', 'config'], ['gh', 'hosts.yml'], ['gcloud', 'credentials.db'], ['gcloud', 'access_tokens.db']];
const SECRET_BASENAME = /(^|[._-])(credentials?|secrets?)([._-]|$)|^id_(rsa|dsa|ecdsa|ed25519)(?!.*\.pub$)|\.(pem|key|p12|pfx|jks|keystore|ppk)$/;
/** Source and docs files named after secrets (`secrets.ts`) are code, not credentials. */
const CODE_FILE = /\.([cm]?[jt]sx?|py|go|rs|java|kt|rb|php|cs|swift|c|h|cc|cpp|hpp|scala|ex|exs|md|mdx|rst|html|css|vue|svelte|sh|snap)$/;

type Matcher = (path: string) => boolean;

function compile(patterns: string[]): Matcher {
  const matchers = patterns.map((pattern) => {
    const options = { nocase: true, dot: true };
    if (!pattern.includes('/')) {
      const test = picomatch(pattern, options);
      return (_path: string, base: string) => test(base);
    }
    const test = picomatch(pattern.startsWith('/') || pattern.startsWith('**/') ? pattern : `**/${pattern}`, options);
    return (path: string) => test(path);
  });
  return (path) => {
    const base = path.split(/[\\/]/).filter(Boolean).pop() ?? '';
    return matchers.some((m) => m(path.replace(/\\/g, '/'), base));
  };
}

/** Builds the secret check: `path → reason` when the path is a secret, matched case-insensitively. */
export function createSecretMatcher(options: SecretOptions): (path: string) => string | undefined {
  const extra = compile(options.extra);
  const allowed = compile(options.allow);
  return (path) => {
    const segments = path.toLowerCase().split(/[\\/]/).filter(Boolean);
    const base = segments[segments.length - 1] ?? '';
    if (!base || allowed(path)) return undefined;
    const dir = segments.slice(0, -1).find((s) => SECRET_DIRS.has(s)) ?? (SECRET_DIRS.has(base) ? base : undefined);
    if (dir) return `${dir}/ holds keys and credentials`;
    if (base.startsWith('.env')) return `${base} holds environment secrets`;
    if (SECRET_NAMES.has(base)) return `${base} holds credentials`;
    for (const tail of SECRET_TAILS)
      if (segments.length >= tail.length && tail.every((part, i) => segments[segments.length - tail.length + i] === part)) return `${tail.join('/')} can hold credentials`;
    if (SECRET_BASENAME.test(base) && !CODE_FILE.test(base)) return `${base} looks like a key or credentials file`;
    if (extra(path)) return `${base} matches permissions.secrets`;
    return undefined;
  };
}

/** Names a glob could match that would be secrets, to judge a pattern whose directory cannot be listed. */
export const SECRET_EXAMPLES = ['.env', '.env.local', '.env.production', '.ssh', '.aws', '.gnupg', '.npmrc', '.netrc', '.git-credentials', 'credentials', 'credentials.json', 'secrets.yaml', 'id_rsa', 'id_ed25519', 'server.key', 'cert.pem'];
