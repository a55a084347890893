/** fetch for the provider SDKs on node:http/https, and the web classes it answers with. */
export { nodeFetch, type FetchInit } from './fetch.js';
export { HttpHeaders, type HeadersInit } from './headers.js';
export { HttpResponse, type ResponseInit } from './response.js';
