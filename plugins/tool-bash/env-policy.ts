/**
 * Which environment variables a command sees (the model reads whatever a command prints, so a
 * token in the environment is a token in the transcript). Modelled on Codex's
 * `shell_environment_policy`: start from all, a core set or none of the agent's variables, drop
 * what looks like a credential (by name, case-insensitive, or by value), drop the configured
 * patterns, add `set`, and keep only `includeOnly` when given. Provider keys never pass.
 */

/** The tool-bash `environment` option. */
export interface EnvironmentPolicy {
  /** Which variables to start from: all of the agent's (default), the core set (HOME, PATH, USER, locale...), or none. */
  inherit?: 'all' | 'core' | 'none';
  /** Keep variables that look like credentials (default false: they are removed). */
  ignoreDefaultExcludes?: boolean;
  /** More names to remove: globs with `*` and `?`, case-insensitive. */
  exclude?: string[];
  /** Variables to set for every command (they pass even when their names look like credentials). */
  set?: Record<string, string>;
  /** When given, only variables matching one of these globs are kept. */
  includeOnly?: string[];
}

/** Variables the agent itself runs on: never passed, whatever the policy says. */
export const PROVIDER_KEYS = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'OPENAI_API_KEY',
  'AZURE_OPENAI_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'GOOGLE_GENERATIVE_AI_API_KEY',
  'MISTRAL_API_KEY',
  'GROQ_API_KEY',
  'DEEPSEEK_API_KEY',
  'OPENROUTER_API_KEY',
  'XAI_API_KEY',
  'COHERE_API_KEY',
  'TOGETHER_API_KEY',
  'FIREWORKS_API_KEY',
  'PERPLEXITY_API_KEY',
];

/** `inherit: core`: what a shell needs to find programs, the home directory and the locale. */
const CORE = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'USER', 'USERNAME', 'TMPDIR', 'TEMP', 'TMP', 'LANG', 'LANGUAGE', 'LC_*', 'TERM', 'TZ', 'SYSTEMROOT', 'COMSPEC', 'PATHEXT'];

/** Names that look like credentials: any part of the name. */
const SECRET_NAME_PARTS = ['*KEY*', '*SECRET*', '*TOKEN*', '*PASSWORD*', '*PASSWD*', '*CREDENTIAL*', '*AUTH*', '*COOKIE*', '*SESSION*', '*PRIVATE*', '*DSN*', '*SIGNATURE*', '*PASSPHRASE*', '*WEBHOOK*', '*PASS', '*PWD'];
/** Short words that mean a credential only as a whole word of the name (`DB_PASS`, `GH_PAT`, `MYSQL_PWD`), not inside `PATH`. */
const SECRET_WORDS = new Set(['PASS', 'PWD', 'PW', 'PAT', 'CREDS', 'APIKEY', 'PIN', 'OTP', 'SALT', 'JWT', 'BEARER']);
/** Names that share a word with the lists above but never hold a credential (their values are still checked). */
const NOT_SECRET_NAMES = new Set(['PWD', 'OLDPWD', 'GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_AUTHOR_DATE']);

/** A URL with a password (`redis://:pw@host`, `https://user:pw@host`), anywhere in the value. */
const URL_WITH_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^\s/?#@]*:[^\s/?#]*@/i;
/** A connection string with a password or key (`Server=db;Password=…`, Azure's `AccountKey=…`). */
const CONNECTION_SECRET = /(^|[;\s])(password|pwd|accountkey|sharedaccesskey|client_secret)\s*=/i;
/** A JSON Web Token. */
const JWT = /\beyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{8,}/;
/** An HTTP authorization header value. */
const BEARER = /\b(bearer|basic)\s+[\w.~+/=-]{16,}/i;
/** Well-known token shapes (GitHub, GitLab, Slack, Stripe, OpenAI-style, AWS, Google, npm, PEM keys). */
const TOKEN_VALUE = /\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,}|glpat-[\w-]{20,}|xox[abposr]-[\w-]{10,}|(sk|rk|pk)_(live|test)_\w{10,}|sk-[\w-]{20,}|A[KS]IA[0-9A-Z]{16}|AIza[\w-]{30,}|npm_[A-Za-z0-9]{30,})\b|-----BEGIN [A-Z ]*PRIVATE KEY-----/;

const globCache = new Map<string, RegExp>();
function glob(pattern: string): RegExp {
  let re = globCache.get(pattern);
  if (!re) {
    re = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*').replaceAll('?', '.')}$`, 'is');
    globCache.set(pattern, re);
  }
  return re;
}
/** Printable ASCII: where the glob's case-insensitive regex and a comparison of upper-cased text agree. */
const PLAIN = /^[\x20-\x7e]*$/;
/**
 * A glob's verdict on a name. The usual shapes (`*KEY*`, `*PASS`, `LC_*`, `HOME`) on printable ASCII
 * are compared as text: a command's spawn tests every variable against every pattern, and the
 * regexes' `.*` backtracking cost it ~1.5 ms. The answer is the regex's: ASCII letters match either
 * case, everything else itself.
 */
function matches(name: string, pattern: string): boolean {
  const lead = pattern.startsWith('*');
  const trail = pattern.length > 1 && pattern.endsWith('*');
  const word = pattern.slice(lead ? 1 : 0, trail ? -1 : undefined);
  if (/[*?]/.test(word) || !PLAIN.test(name) || !PLAIN.test(word)) return glob(pattern).test(name);
  const text = name.toUpperCase();
  const upper = word.toUpperCase();
  if (lead && trail) return text.includes(upper);
  if (lead) return text.endsWith(upper);
  if (trail) return text.startsWith(upper);
  return text === upper;
}
const matchesAny = (name: string, patterns: readonly string[]) => patterns.some((p) => matches(name, p));

/** Whether a variable looks like it carries a credential, by its name or its value. */
export function looksSecret(name: string, value: string | undefined): boolean {
  if (!NOT_SECRET_NAMES.has(name.toUpperCase())) {
    if (matchesAny(name, SECRET_NAME_PARTS)) return true;
    if (name.toUpperCase().split(/[^A-Z0-9]+/).some((word) => SECRET_WORDS.has(word))) return true;
  }
  return !!value && [URL_WITH_PASSWORD, CONNECTION_SECRET, JWT, BEARER, TOKEN_VALUE].some((re) => re.test(value));
}

/** Applies `policy` to `source`; `scrub` names are removed too (provider keys, the configured provider's key variable). */
export function applyEnvironmentPolicy(source: NodeJS.ProcessEnv, policy: EnvironmentPolicy = {}, scrub: readonly string[] = []): NodeJS.ProcessEnv {
  const inherit = policy.inherit ?? 'all';
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || inherit === 'none') continue;
    if (inherit === 'core' && !matchesAny(name, CORE)) continue;
    env[name] = value;
  }
  for (const [name, value] of Object.entries(env)) {
    if (!policy.ignoreDefaultExcludes && looksSecret(name, value)) delete env[name];
    else if (matchesAny(name, policy.exclude ?? [])) delete env[name];
  }
  // Never passed, even with ignoreDefaultExcludes: names compared case-insensitively (Windows keeps any case).
  const never = new Set([...PROVIDER_KEYS, ...scrub].map((k) => k.toUpperCase()));
  for (const name of Object.keys(env)) if (never.has(name.toUpperCase())) delete env[name];
  Object.assign(env, policy.set ?? {});
  if (policy.includeOnly) for (const name of Object.keys(env)) if (!matchesAny(name, policy.includeOnly)) delete env[name];
  return env;
}
