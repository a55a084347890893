/**
 * The note a network-less sandboxed command's failure gets. Apart from network.ts (the permission
 * layer) because the worker loads it: a worker module graph must not reach the main entry.
 */

/** What failing DNS lookups and connections print (Node, curl, git, pip, npm, Go, Python). */
const NETWORK_FAILURE =
  /EAI_AGAIN|ENOTFOUND|ENETUNREACH|EHOSTUNREACH|ECONNREFUSED|Could not resolve host|Could not resolve proxy|Temporary failure in name resolution|Name or service not known|No address associated with hostname|Network is unreachable|getaddrinfo|Failed to establish a new connection|dial tcp|unable to access '.*': |Could not connect to|nodename nor servname/i;

/** The note a failed, network-less sandboxed command gets when its output looks like a network failure. */
export function networkNote(output: string): string | undefined {
  if (!NETWORK_FAILURE.test(output)) return undefined;
  return '(This command ran in the sandbox, which has no network: DNS lookups and connections fail there. If it needs the network (a package install, a fetch), call Bash again with "network": true to ask the user to run it once with network access; do not work around the failure.)';
}
