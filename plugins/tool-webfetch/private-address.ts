import { isIP } from 'node:net';
import { Stage, type PermissionDecision, type PermissionRequest } from '../../core/index.js';
import { connectHost, privateAddressOf, resolveHost, type HostPin } from './address.js';
import { mayBeAllowed, parseFetchUrl, ruleHost, type WebFetchAllowance } from './url.js';

/** Most pins kept for calls that have not run yet (denied calls never collect theirs). */
const MAX_PINS = 256;

const layer = 'tool-webfetch';
/** `localhost` and `*.localhost` are this machine (RFC 6761), whatever a resolver says. */
const isLocalhostName = (host: string) => /(^|\.)localhost\.*$/i.test(host);
const LOOPBACK: HostPin['addresses'] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

/**
 * WebFetch's own permission layer. It resolves the URL's host once and pins the answer for the
 * call, so the fetch connects to exactly the addresses judged here (a DNS answer that changes in
 * between cannot move it onto the local network). A host on a loopback, private or link-local
 * address asks a person, whatever domain rules say, unless an allow rule names that exact host;
 * bypass mode allows it, as it allows Bash's network.
 */
export function privateAddressLayer(tool: string, options: { allowance: WebFetchAllowance; lookupTimeoutMs: number }) {
  const pins = new Map<string, HostPin & { url: string }>();
  const key = (callId: string | undefined, agentId: string | undefined) => `${agentId ?? ''}\0${callId ?? ''}`;
  return {
    stage: Stage.TOOL_POLICY,
    async layer(request: PermissionRequest): Promise<PermissionDecision | undefined> {
      if (request.tool !== tool) return undefined;
      const parsed = parseFetchUrl(request.input.url);
      // Nothing to ask anyone about: the tool would refuse it.
      if ('problem' in parsed) return { behavior: 'deny', layer, reason: `${parsed.problem}`, hint: '' };
      const { url } = parsed;
      // No DNS query for a host nothing would let through unasked: the lookup itself would tell
      // the host's name server about the call (a prompt injection could leak data that way) before
      // anyone approved it. Such a call asks; once approved, the fetch refuses a private answer.
      const host = connectHost(url);
      const literal = isIP(host) !== 0 || isLocalhostName(host);
      if (!literal && request.mode !== 'bypass' && !mayBeAllowed(url.hostname, options.allowance)) return undefined;
      let pin: HostPin;
      try {
        pin = { host: url.hostname, addresses: isLocalhostName(host) && !isIP(host) ? LOOPBACK : await resolveHost(host, options.lookupTimeoutMs) };
      } catch {
        // Unresolvable now: the fetch looks it up again and refuses a private answer itself.
        return undefined;
      }
      if (request.callId !== undefined) {
        pins.delete(key(request.callId, request.agentId));
        pins.set(key(request.callId, request.agentId), { ...pin, url: String(request.input.url) });
        if (pins.size > MAX_PINS) pins.delete(pins.keys().next().value!);
      }
      const address = privateAddressOf(pin.addresses);
      if (!address || request.mode === 'bypass' || options.allowance.domains.includes(ruleHost(url.hostname))) return undefined;
      return {
        behavior: 'ask',
        layer,
        reason: `${url.hostname} resolves to ${address}, a loopback, private or link-local address: WebFetch asks before reaching this machine or its network, whatever rules allow its domain`,
        hint: `add "WebFetch(domain:${url.hostname})" to permissions.allow to let WebFetch reach it`,
      };
    },
    /** The pin judged for this call, taken once (the worker connects to these addresses only). */
    take(callId: string, agentId: string | undefined, url: unknown): HostPin | undefined {
      const pin = pins.get(key(callId, agentId));
      pins.delete(key(callId, agentId));
      return pin && pin.url === url ? { host: pin.host, addresses: pin.addresses } : undefined;
    },
  };
}
