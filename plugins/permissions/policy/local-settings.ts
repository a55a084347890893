import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError } from '../../../core/index.js';
import { readTrust, sha256, trustLocalRules } from '../../../core/kits/trust/index.js';
import { parseRules, type Rule, type RuleKind } from './rules/parse.js';

/** The rules kept in the project's local settings file. */
export interface LocalRules {
  allow: Rule[];
  ask: Rule[];
  deny: Rule[];
}

interface SettingsFile {
  permissions?: { allow?: string[]; ask?: string[]; deny?: string[] };
  [key: string]: unknown;
}

const EMPTY: LocalRules = { allow: [], ask: [], deny: [] };

/**
 * The project-local settings file (`.assistant/settings.local.json` by default): where "always for
 * this project" answers go, never the shared `.assistantrc`. Re-read when it changes on disk.
 *
 * The file lives in the project, where any command the agent runs can write. So with `trustRoot`
 * set (the CLI checks trust) an allow rule counts only when the user gave it: answered "always"
 * (assistant records the rule's digest in the user's data directory as it writes the file) or
 * trusted the project with it. A planted rule is ignored; deny and ask rules always count.
 */
export class LocalSettings {
  private cached: { mtimeMs: number; size: number; rules: LocalRules } | undefined;
  /** Allow rules in the file that the user did not give, as written. */
  ignored: string[] = [];

  constructor(
    readonly file: string,
    private readonly trust?: { root: string; env?: NodeJS.ProcessEnv },
  ) {}

  /** The allow rules the user gave (all of them when trust is not checked). */
  private given(list: string[]): string[] {
    if (!this.trust) return list;
    const given = new Set(readTrust(this.trust.root, this.trust.env)?.localRules ?? []);
    this.ignored = list.filter((rule) => !given.has(sha256(rule)));
    return list.filter((rule) => given.has(sha256(rule)));
  }

  /** The file's rules; a malformed file throws (the permission hook then denies, naming the file). */
  rules(): LocalRules {
    let stat;
    try {
      stat = statSync(this.file);
    } catch {
      this.cached = undefined;
      return EMPTY;
    }
    if (this.cached && this.cached.mtimeMs === stat.mtimeMs && this.cached.size === stat.size) return this.cached.rules;
    const data = this.read();
    const lists = data.permissions ?? {};
    const rules: LocalRules = { allow: [], ask: [], deny: [] };
    for (const kind of ['allow', 'ask', 'deny'] as RuleKind[]) {
      const list = lists[kind] ?? [];
      if (!Array.isArray(list) || list.some((r) => typeof r !== 'string'))
        throw new ConfigError('ASSISTANT_CONFIG_INVALID', `${this.file}: /permissions/${kind}: must be a list of rule strings`, { file: this.file, plugin: 'permissions' });
      rules[kind] = parseRules(kind === 'allow' ? this.given(list) : list, kind, this.file);
    }
    this.cached = { mtimeMs: stat.mtimeMs, size: stat.size, rules };
    return rules;
  }

  /** Adds an allow rule, writing the file atomically (a crash leaves the old file or the new one, never half). */
  addAllow(rule: string): void {
    const data = existsSync(this.file) ? this.read() : {};
    const permissions = (data.permissions ??= {});
    const allow = (permissions.allow ??= []);
    if (allow.includes(rule)) return;
    allow.push(rule);
    const dir = dirname(this.file);
    mkdirSync(dir, { recursive: true });
    // Keep the file out of version control: it is this machine's answers, not the team's policy.
    const ignore = join(dir, '.gitignore');
    if (!existsSync(ignore)) writeFileSync(ignore, `${this.file.slice(dir.length + 1)}\n`);
    const temp = `${this.file}.${process.pid}.tmp`;
    const fd = openSync(temp, 'w', 0o600);
    try {
      writeSync(fd, JSON.stringify(data, null, 2) + '\n');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, this.file);
    // The user's own answer: recorded as given, so it counts at the next start too.
    if (this.trust) trustLocalRules(this.trust.root, [rule], this.trust.env);
    this.cached = undefined;
  }

  private read(): SettingsFile {
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(this.file, 'utf8'));
    } catch (cause) {
      throw new ConfigError('ASSISTANT_CONFIG_PARSE', `${this.file} is not valid JSON (${(cause as Error).message}); fix or delete it (it holds "always allow" answers)`, {
        file: this.file,
        plugin: 'permissions',
        cause,
      });
    }
    if (!data || typeof data !== 'object' || Array.isArray(data))
      throw new ConfigError('ASSISTANT_CONFIG_INVALID', `${this.file}: must be a JSON object like {"permissions": {"allow": []}}`, { file: this.file, plugin: 'permissions' });
    return data as SettingsFile;
  }
}
