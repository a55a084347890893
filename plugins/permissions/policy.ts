import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { Kernel, PermissionRequest } from '../../core/index.js';
import { gatherFacts, realRoot, type RequestFacts } from './facts.js';
import { LocalSettings } from './local-settings.js';
import type { PermissionsOptions } from './options.js';
import { createSecretMatcher } from './paths/secrets.js';
import type { MatchContext } from './rules/match.js';
import { parseRule, parseRules, type Rule } from './rules/parse.js';

/** The state every layer of the policy shares. */
export interface Policy {
  options: PermissionsOptions;
  /** Rules from the configuration. */
  config: { allow: Rule[]; ask: Rule[]; deny: Rule[] };
  local: LocalSettings;
  /** Grants given "for this session" (from the open session, or kept here when none is open). */
  sessionGrants(): Rule[];
  /** Records a "for this session" grant. */
  grantForSession(rule: string): Promise<void>;
  /** The facts of a request, computed once per request whichever layer asks first. */
  facts(request: PermissionRequest): Promise<RequestFacts>;
  /** The context rules are matched in. */
  matchContext(request: PermissionRequest, facts: RequestFacts): MatchContext;
  home: string | null;
}

/** Builds the shared policy state for one kernel. */
export function createPolicy(kernel: Kernel, options: PermissionsOptions): Policy {
  const where = kernel.resolvedConfig.projectFile ?? 'the configuration';
  const config = {
    allow: parseRules(options.allow, 'allow', where),
    ask: parseRules(options.ask, 'ask', where),
    deny: parseRules(options.deny, 'deny', where),
  };
  const home = process.env.HOME || homedir() || null;
  const isSecret = createSecretMatcher(options.secrets);
  const settings = { isSecret, allowSudo: options.allowSudo, trustTests: options.trustTestCommands, home };
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
  return {
    options,
    config,
    local: new LocalSettings(resolve(kernel.projectRoot, options.localSettings)),
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
        facts = gatherFacts(request, settings);
        computed.set(request, facts);
      }
      return facts;
    },
    matchContext: (request, facts) => ({ request, facts, root: realRoot(request.projectRoot), home, trustTests: options.trustTestCommands }),
  };
}
