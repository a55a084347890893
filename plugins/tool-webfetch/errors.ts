import { defineErrorCodes } from '../../core/kits/tool/index.js';

/** WebFetch's error codes: registered through the plugin's `errors`, documented in docs/errors.md. */
export const WEBFETCH_ERRORS = defineErrorCodes({
  ASSISTANT_WEBFETCH_URL_INVALID: { exit: 1, text: 'WebFetch was given something that is not an http or https URL (another scheme, userinfo, no host); nothing was fetched.' },
  ASSISTANT_WEBFETCH_PRIVATE_ADDRESS: { exit: 1, text: 'WebFetch refused a host that resolves to a loopback, private or link-local address nobody approved (see WebFetch in docs/security.md).' },
  ASSISTANT_WEBFETCH_NETWORK: { exit: 1, text: 'WebFetch could not reach the server: DNS failure, connection refused or reset, TLS error, or a broken response.' },
  ASSISTANT_WEBFETCH_HTTP_STATUS: { exit: 1, text: 'The server answered WebFetch with an HTTP error status (4xx or 5xx); the result holds the start of its answer.' },
  ASSISTANT_WEBFETCH_BINARY: { exit: 1, text: 'WebFetch refused a binary answer (image, PDF, archive...): it returns text, HTML as markdown, and JSON only.' },
  ASSISTANT_WEBFETCH_TOO_MANY_REDIRECTS: { exit: 1, text: 'A server kept redirecting WebFetch within its own host past the redirect limit.' },
});
