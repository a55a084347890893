// `WebFetch(domain:…)` rules match the host the fetch will really connect to, as the WHATWG URL
// parser (which the fetch uses too) sees it: tricks that make a URL look like an allowed host
// (suffixes, userinfo, look-alike letters, other spellings of an address) match nothing they should
// not, and spellings of an allowed host (case, trailing dot, port, punycode) still match it.
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { checkBatch, policyFixture, type CheckRequest, type CheckResult, type PolicyFixture } from '../permissions/support.js';

const RULES = {
  permissions: {
    allow: ['WebFetch(domain:example.com)', 'WebFetch(domain:bücher.de)', 'WebFetch(domain:93.184.216.34)', 'WebFetch(domain:localhost)', 'WebFetch(domain:[::1])'],
    deny: ['WebFetch(domain:evil.net)'],
  },
};

interface Case {
  url: string;
  mode?: CheckRequest['mode'];
  behavior: 'allow' | 'ask' | 'deny';
  layer?: string;
  reason?: RegExp;
  suggested?: string;
}

const CASES: Case[] = [
  // The host and its subdomains, however the same host is spelt.
  { url: 'https://example.com/', behavior: 'allow', layer: 'rules' },
  { url: 'https://docs.example.com/guide?q=1', behavior: 'allow', layer: 'rules' },
  { url: 'https://EXAMPLE.COM/', behavior: 'allow', layer: 'rules' },
  { url: 'https://example.com./', behavior: 'allow', layer: 'rules' },
  { url: 'https://example.com:8443/x', behavior: 'allow', layer: 'rules' },
  { url: 'https://xn--bcher-kva.de/', behavior: 'allow', layer: 'rules' },
  { url: 'https://BÜCHER.de/', behavior: 'allow', layer: 'rules' },
  // Other spellings of an allowed public address are that address.
  { url: 'http://93.184.216.34/', behavior: 'allow', layer: 'rules' },
  { url: 'http://1572395042/', behavior: 'allow', layer: 'rules' },
  { url: 'http://0x5d.0xb8.0xd8.0x22/', behavior: 'allow', layer: 'rules' },
  // Look-alikes are other hosts: they ask, and the suggested rule is their exact host.
  { url: 'https://example.com.evil.io/', behavior: 'ask', suggested: 'WebFetch(domain:example.com.evil.io)' },
  { url: 'https://evilexample.com/', behavior: 'ask', suggested: 'WebFetch(domain:evilexample.com)' },
  { url: 'https://exämple.com/', behavior: 'ask', suggested: 'WebFetch(domain:xn--exmple-cua.com)' },
  { url: 'https://\u0435xample.com/', behavior: 'ask' },
  { url: 'https://example.co/', behavior: 'ask' },
  { url: 'https://docs.other.org/a/b', behavior: 'ask', suggested: 'WebFetch(domain:docs.other.org)' },
  // An address is not a domain: no suffix of it is "in" another.
  { url: 'http://193.184.216.34/', behavior: 'ask' },
  { url: 'http://93.184.216.3/', behavior: 'ask' },
  // Deny rules hold whatever the spelling; userinfo is not the host.
  { url: 'http://evil.net/', behavior: 'deny', layer: 'rules' },
  { url: 'http://EVIL.NET./', behavior: 'deny', layer: 'rules' },
  { url: 'https://sub.evil.net:8080/', behavior: 'deny', layer: 'rules' },
  { url: 'http://example.com@evil.net/', behavior: 'deny', layer: 'rules' },
  { url: 'https://example.com.evil.net/', behavior: 'deny', layer: 'rules' },
  { url: 'http://example.com:pw@other.org/', behavior: 'deny', layer: 'tool-webfetch', reason: /user name or password/ },
  { url: 'http://evil.net/', mode: 'bypass', behavior: 'deny', layer: 'rules' },
  // Only http and https.
  { url: 'file:///etc/passwd', behavior: 'deny', layer: 'tool-webfetch', reason: /http and https URLs only/ },
  { url: 'ftp://example.com/', behavior: 'deny', layer: 'tool-webfetch' },
  { url: 'not a url', behavior: 'deny', layer: 'tool-webfetch' },
  // Loopback, private and link-local addresses ask, whatever spelling, unless a rule names that exact host.
  { url: 'http://127.0.0.1:8080/', behavior: 'ask', layer: 'tool-webfetch', reason: /127\.0\.0\.1.*loopback, private or link-local/ },
  { url: 'http://2130706433/', behavior: 'ask', layer: 'tool-webfetch' },
  { url: 'http://0x7f.1/', behavior: 'ask', layer: 'tool-webfetch' },
  { url: 'http://[::ffff:127.0.0.1]/', behavior: 'ask', layer: 'tool-webfetch' },
  { url: 'http://169.254.169.254/latest/meta-data/', behavior: 'ask', layer: 'tool-webfetch' },
  { url: 'http://10.1.2.3/', behavior: 'ask', layer: 'tool-webfetch' },
  { url: 'http://[fd00::1]/', behavior: 'ask', layer: 'tool-webfetch' },
  { url: 'http://169.254.169.254/', mode: 'plan', behavior: 'ask', layer: 'tool-webfetch' },
  { url: 'http://localhost:3000/', behavior: 'allow', layer: 'rules' },
  { url: 'http://[::1]:3000/', behavior: 'allow', layer: 'rules' },
  { url: 'http://10.1.2.3/', mode: 'bypass', behavior: 'allow', layer: 'mode' },
];

let fixture: PolicyFixture;
let results: CheckResult[];

beforeAll(async () => {
  fixture = policyFixture(RULES);
  results = await checkBatch(fixture, CASES.map((c) => ({ tool: 'WebFetch', input: { url: c.url }, mode: c.mode ?? 'default' })));
}, 180_000);

describe('WebFetch(domain:…) rules', () => {
  it('match the host the URL parser sees, and nothing that only looks like it', () => {
    const failures = CASES.flatMap((c, i) => {
      const got = results[i]!;
      const ok =
        got.behavior === c.behavior &&
        (c.layer === undefined || got.layer === c.layer) &&
        (!c.reason || c.reason.test(got.reason ?? '')) &&
        (c.suggested === undefined || got.suggestedRule === c.suggested);
      return ok ? [] : [`${c.url} (${c.mode ?? 'default'}): want ${c.behavior}/${c.layer ?? '*'}${c.suggested ? ' ' + c.suggested : ''}, got ${got.behavior}/${got.layer} ${got.suggestedRule ?? ''}: ${got.reason ?? got.error}`];
    });
    expect(failures).toEqual([]);
  });

  it('refuse at load a domain rule that names no host (a port, path or wildcard), so a deny rule never silently matches nothing', async () => {
    for (const rule of ['WebFetch(domain:evil.net:443)', 'WebFetch(domain:*.evil.net)', 'WebFetch(domain:evil.net/x)', 'WebFetch(domain:user@evil.net)']) {
      const broken = policyFixture({ permissions: { deny: [rule] } });
      const result = await runCli(['permissions', 'check', '--tool', 'WebFetch', '--input', '{"url":"https://evil.net/"}', '--trust-project'], { cwd: broken.root, env: broken.env });
      expect(result.code, rule).toBe(2);
      expect(result.stderr).toMatch(/ASSISTANT_PLUGIN_OPTIONS_INVALID: .*names no host/);
    }
  }, 120_000);
});
