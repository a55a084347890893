import picomatch from 'picomatch';

/**
 * Secret files: credentials, keys and state files that hold them. The permission policy refuses
 * them and the file tools withhold them from their results, so both must agree on one list: it
 * lives here, as plain data plus a pure matcher a worker thread can rebuild from its options.
 */
export interface SecretOptions {
  /** More secret file patterns (`*.tfvars`, `config/master.key`); no slash = any directory. */
  extra: string[];
  /** Files that look secret but are not (`.env.example`). */
  allow: string[];
}

/** The exceptions a project gets when it configures none. */
export const DEFAULT_SECRET_ALLOW = ['.env.example'];

/** Directories whose whole content is secret (keys, cloud logins, terraform's provider state). */
const SECRET_DIRS = new Set(['.ssh', '.aws', '.gnupg', '.azure', '.terraform', '.password-store', '.vault', '.kube']);
/** Files that hold credentials, by exact name. */
const SECRET_NAMES = new Set([
  '.netrc', '_netrc', '.npmrc', '.pypirc', '.git-credentials', '.pgpass', '.my.cnf', '.dockercfg', '.dockerconfigjson', '.htpasswd', '.vault-token',
  '.boto', '.s3cfg', '.terraformrc', 'terraform.rc', 'kubeconfig', 'wallet.dat', 'secring.gpg', '.bash_history', '.zsh_history', '.psql_history',
  '.mysql_history', '.sqlite_history', '.rediscli_history', '.python_history', '.node_repl_history',
]);
/** Paths ending like this are secret (`.git/config` holds remote URLs with tokens). */
const SECRET_TAILS = [
  ['etc', 'shadow'], ['etc', 'gshadow'], ['etc', 'master.passwd'], ['etc', 'sudoers'], ['.git', 'config'], ['.docker', 'config.json'],
  ['.kube', 'config'], ['gh', 'hosts.yml'], ['gcloud', 'credentials.db'], ['gcloud', 'access_tokens.db'], ['composer', 'auth.json'],
  ['.config', 'hub'], ['.cargo', 'credentials'],
];
/** Files of a process under /proc that expose its environment (API keys) or memory. */
const PROCESS_SECRETS = new Set(['environ', 'mem', 'auxv']);
/** Names of keys, credentials and files that embed them (terraform state holds every resource's secrets in clear). */
const SECRET_BASENAME = new RegExp(
  [
    String.raw`(^|[._-])(credentials?|secrets?)([._-]|$)`,
    String.raw`^id_(rsa|dsa|ecdsa|ed25519)(?!.*\.pub$)`,
    String.raw`\.(pem|key|p12|pfx|jks|keystore|ppk|p8|kdbx|kdb|keychain|keytab|ovpn|gpg|tfstate|tfvars)$`,
    String.raw`\.tfstate\.|\.tfvars\.json$|\.kubeconfig$|^kubeconfig[._-]`,
    String.raw`(service[-_]?account|sa[-_]key|gcp[-_]key|firebase[-_]adminsdk).*\.json$`,
  ].join('|'),
);
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
  // The glob patterns compile on the first check (~0.5 ms with picomatch's own start): a run that
  // checks no path, as a one-shot answer, never pays it. The lists are copied now, as they were.
  const patterns = { extra: [...options.extra], allow: [...options.allow] };
  let extra: Matcher | undefined;
  let allowed: Matcher | undefined;
  return (path) => {
    extra ??= compile(patterns.extra);
    allowed ??= compile(patterns.allow);
    const segments = path.toLowerCase().split(/[\\/]/).filter(Boolean);
    const base = segments[segments.length - 1] ?? '';
    if (!base || allowed(path)) return undefined;
    const dir = segments.slice(0, -1).find((s) => SECRET_DIRS.has(s)) ?? (SECRET_DIRS.has(base) ? base : undefined);
    if (dir) return `${dir}/ holds keys and credentials`;
    if (base.startsWith('.env')) return `${base} holds environment secrets`;
    if (SECRET_NAMES.has(base)) return `${base} holds credentials`;
    // Every git config (submodules' and worktrees' too) can hold a remote URL with a token.
    if ((base === 'config' || base === 'config.worktree') && segments.slice(0, -1).includes('.git')) return 'a git config can hold credentials';
    if (segments[0] === 'proc' && PROCESS_SECRETS.has(base)) return `/proc/…/${base} holds a process's environment or memory (API keys)`;
    for (const tail of SECRET_TAILS)
      if (segments.length >= tail.length && tail.every((part, i) => segments[segments.length - tail.length + i] === part)) return `${tail.join('/')} can hold credentials`;
    if (SECRET_BASENAME.test(base) && !CODE_FILE.test(base)) return `${base} looks like a key, credentials or state file`;
    if (extra(path)) return `${base} matches permissions.secrets`;
    return undefined;
  };
}

/** Content that is a credential whatever the file is called (a hard link or copy of a key under an innocent name). */
const SECRET_CONTENT = /-----BEGIN ((RSA|DSA|EC|OPENSSH|ENCRYPTED|PGP) )?PRIVATE KEY( BLOCK)?-----|"type"\s*:\s*"service_account"/;

/** Why these bytes (a file's start) are a credential, or undefined. */
export function secretContent(text: string): string | undefined {
  return SECRET_CONTENT.test(text) ? 'it holds a private key or service-account credentials' : undefined;
}

/** The secret patterns of a merged configuration's `permissions.secrets`, so every plugin withholds exactly what the policy refuses. */
export function secretOptionsOf(config: Record<string, unknown>): SecretOptions {
  const section = (config.permissions ?? {}) as { secrets?: { extra?: unknown; allow?: unknown } };
  const strings = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined);
  return { extra: strings(section.secrets?.extra) ?? [], allow: strings(section.secrets?.allow) ?? DEFAULT_SECRET_ALLOW };
}
