import { lstatSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { Kernel, PermissionRequest } from '../../../core/index.js';
import { directoriesAddedWhileRunning, realAddedDirectories } from '../../../core/kits/fs/index.js';
import type { RequestFacts } from './facts.js';
import { permissionEngine } from './lazy.js';
import { LocalSettings } from './local-settings.js';
import type { PermissionsOptions } from './options.js';
import { controlFileReason } from './paths/protected.js';
import { realRoot } from './paths/resolve.js';
import { createSecretMatcher } from './paths/secrets.js';
import type { MatchContext } from './rules/match.js';
import { parseRule, parseRules, type Rule } from './rules/parse.js';

/** The state every layer of the policy shares. */
export interface Policy {
  options: PermissionsOptions;
  /** Rules from the configuration. */
  readonly config: Readonly<{ allow: readonly Rule[]; ask: readonly Rule[]; deny: readonly Rule[] }>;
  local: LocalSettings;
  /** Grants given "for this session" (from the open session, or kept here when none is open). */
  sessionGrants(): Rule[];
  /** Records a "for this session" grant. */
  grantForSession(rule: string): Promise<void>;
  /** The facts of a request, computed once per request whichever layer asks first. */
  facts(request: PermissionRequest): Promise<RequestFacts>;
  /** The context rules are matched in. */
  matchContext(request: PermissionRequest, facts: RequestFacts): MatchContext;
  /** Real paths of the added directories (`--add-dir`), treated as the project root is. */
  addedRoots: readonly string[];
  /** Why the call writes a file that steers the agent (its config, settings, git hooks, ...), or undefined. */
  controlWrite(request: PermissionRequest, facts: RequestFacts): string | undefined;
  home: string | null;
}

/** A file with more than one name: writing it writes every name, a control file's included. */
function hardLinked(path: string): boolean {
  try {
    const stat = lstatSync(path);
    return stat.isFile() && stat.nlink > 1;
  } catch {
    return false;
  }
}

/** Strings of an edit's input that could add an `assistant` key (directly, or through a JSON escape). */
function mentionsAssistantKey(input: unknown): boolean {
  if (typeof input === 'string') return /assistant/i.test(input) || /\\u[0-9a-f]{4}/i.test(input);
  if (Array.isArray(input)) return input.some(mentionsAssistantKey);
  if (input && typeof input === 'object') return Object.values(input).some(mentionsAssistantKey);
  return false;
}

/** Where local "always allow" answers are checked against the user's record: only when the loader checked trust. */
function trustOf(kernel: Kernel): { root: string } | undefined {
  const trust = kernel.resolvedConfig.trust;
  return trust ? { root: trust.root } : undefined;
}

/** Builds the shared policy state for one kernel; what is checked here (rules, added directories) fails the start, as bad options do. */
export function createPolicy(kernel: Kernel, options: PermissionsOptions): Policy {
  const where = kernel.resolvedConfig.projectFile ?? 'the configuration';
  // Frozen: the state is shared with every layer plugin, and none may change another's rules.
  const config = Object.freeze({
    allow: Object.freeze(parseRules(options.allow, 'allow', where)),
    ask: Object.freeze(parseRules(options.ask, 'ask', where)),
    deny: Object.freeze(parseRules(options.deny, 'deny', where)),
  });
  const home = process.env.HOME || homedir() || null;
  const isSecret = createSecretMatcher(options.secrets);
  const source = kernel.resolvedConfig.sources['/permissions/additionalDirectories'] ?? 'the configuration';
  const configuredRoots = realAddedDirectories(options.additionalDirectories ?? [], realRoot(kernel.projectRoot), source === 'flags' ? '--add-dir' : source);
  // Read on each request: `/add-dir` adds folders while the agent runs (never removes one).
  const addedRoots = () => Object.freeze([...new Set([...configuredRoots, ...directoriesAddedWhileRunning(kernel)])]);
  const settings = {
    isSecret,
    allowSudo: options.allowSudo,
    trustTests: options.trustTestCommands,
    home,
    get addedRoots() {
      return addedRoots();
    },
  };
  const computed = new WeakMap<PermissionRequest, Promise<RequestFacts>>();
  const memoryGrants: string[] = [];
  const parsedGrants = new Map<string, Rule | null>();
  const grantRule = (text: string): Rule | null => {
    if (!parsedGrants.has(text)) {
      try {
        parsedGrants.set(text, parseRule(text, 'allow', 'this session'));
      } catch {
        parsedGrants.set(text, null);
      }
    }
    return parsedGrants.get(text)!;
  };
  const policy: Policy = {
    options,
    config,
    local: new LocalSettings(resolve(kernel.projectRoot, options.localSettings), trustOf(kernel)),
    home,
    sessionGrants() {
      const texts = kernel.session ? kernel.session.grants.map((g) => g.rule) : memoryGrants;
      return texts.map(grantRule).filter((r): r is Rule => r !== null);
    },
    async grantForSession(rule) {
      if (kernel.session) await kernel.session.record({ type: 'grant', grant: { rule, time: Date.now() } });
      else if (!memoryGrants.includes(rule)) memoryGrants.push(rule);
    },
    facts(request) {
      let facts = computed.get(request);
      if (!facts) {
        // The engine (shell parser, specs, path scans) is imported at the first request, not at start.
        facts = permissionEngine.get().then((engine) => engine.gatherFacts(request, settings));
        computed.set(request, facts);
      }
      return facts;
    },
    matchContext: (request, facts) => ({ request, facts, root: realRoot(request.projectRoot), home, trustTests: options.trustTestCommands }),
    get addedRoots() {
      return addedRoots();
    },
    controlWrite(request, facts) {
      const context = { controlFiles: kernel.controlFiles, root: realRoot(request.projectRoot), cwd: request.cwd };
      // An added directory has control files of its own (its config, its git hooks), seen from its top.
      const contexts = [context, ...addedRoots().map((root) => ({ ...context, root, cwd: root }))];
      // A command's output is unknown; an edit could add the `assistant` key of package.json.
      const mayAddKey = facts.shell !== undefined || mentionsAssistantKey(request.input);
      for (const fact of facts.writes) {
        for (const path of [fact.real, fact.absolute])
          for (const where of contexts) {
            const why = path ? controlFileReason(path, where, mayAddKey) : undefined;
            if (why) return `${fact.raw}: ${why}`;
          }
        // .git internals and shell start-up files (paths/protected.ts) steer what runs just as much.
        if (fact.protected) return `${fact.raw}: ${fact.protected}`;
        if (fact.real && hardLinked(fact.real)) return `${fact.raw}: it has other hard links, so writing it may change a control file`;
      }
      return undefined;
    },
  };
  return Object.freeze(policy);
}
