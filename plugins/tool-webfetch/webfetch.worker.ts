import { errorResult, textResult, type Json, type ToolResult, type WorkerContext, type WorkerTask } from '../../core/kits/tool/index.js';
import type { HostPin } from './address.js';
import { decodeBody, kindOf, mediaType, sniff } from './content.js';
import { WEBFETCH_ERRORS } from './errors.js';
import { fetchPage, type FetchLimits, type Hop } from './fetch-page.js';
import { fitToLimit } from './focus.js';
import { HttpFailure, type HttpAnswer } from './http.js';
import { htmlToMarkdown } from './markdown.js';
import { parseFetchUrl } from './url.js';

const CODES = WEBFETCH_ERRORS;
/** How much of an error page the model sees. */
const ERROR_EXCERPT_CHARS = 2000;

/** What the plugin hands every task (plain data: it crosses into the worker). */
export interface WebFetchTaskOptions extends FetchLimits {
  maxChars: number;
}

const size = (bytes: number) => (bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} kB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
const hopLines = (hops: Hop[]) => hops.map((h) => `Redirected (${h.status}): ${h.from} → ${h.to}`);

/** The page's text: HTML as markdown, text as it is. */
function pageText(answer: HttpAnswer, url: URL): { title?: string; text: string; extracted?: string; type: string } | { binary: string } {
  const type = mediaType(answer.headers['content-type']);
  let kind = kindOf(type);
  if (kind === 'unknown') kind = sniff(answer.body);
  if (kind === 'binary') return { binary: type || 'binary data' };
  const body = decodeBody(answer.body, answer.headers['content-type'], kind);
  if (kind !== 'html') return { text: body, type: type || 'text (undeclared)' };
  const page = htmlToMarkdown(body, url.href);
  return { title: page.title, text: page.markdown, extracted: page.extracted, type: type || 'text/html (undeclared)' };
}

/** WebFetch: one URL, its redirects within the host, the answer as text the model can read. */
export async function run(task: WorkerTask, context: WorkerContext): Promise<ToolResult> {
  const options = task.options as unknown as WebFetchTaskOptions;
  const input = task.input as { url: string; prompt?: string };
  const parsed = parseFetchUrl(input.url);
  if ('problem' in parsed) return errorResult(CODES.ASSISTANT_WEBFETCH_URL_INVALID.code, `Nothing was fetched: ${parsed.problem}.`);
  const pin = (task.state.pin ?? undefined) as unknown as HostPin | undefined;
  let outcome;
  try {
    outcome = await fetchPage(parsed.url, pin, options, context.signal);
  } catch (error) {
    if (context.signal.aborted) {
      const timedOut = /timeout/i.test(String((context.signal.reason as Error | undefined)?.message ?? ''));
      return errorResult(timedOut ? 'ASSISTANT_TOOL_TIMEOUT' : 'ASSISTANT_TOOL_ABORTED', `The fetch of ${parsed.url.href} was ${timedOut ? 'stopped at its time limit' : 'cancelled'}.`);
    }
    const why = error instanceof HttpFailure || error instanceof Error ? error.message : String(error);
    return errorResult(CODES.ASSISTANT_WEBFETCH_NETWORK.code, `Could not fetch ${parsed.url.href}: ${why}.`);
  }
  const meta: { [key: string]: Json } = { url: parsed.url.href, finalUrl: outcome.url.href, redirects: outcome.hops as unknown as Json };
  if (outcome.kind === 'private')
    return errorResult(
      CODES.ASSISTANT_WEBFETCH_PRIVATE_ADDRESS.code,
      `Not fetched: ${outcome.url.hostname} resolves to ${outcome.address}, a loopback, private or link-local address, and nobody approved reaching it. A user can allow it with the rule WebFetch(domain:${outcome.url.hostname}) in permissions.allow.`,
      meta,
    );
  if (outcome.kind === 'tooManyRedirects')
    return errorResult(CODES.ASSISTANT_WEBFETCH_TOO_MANY_REDIRECTS.code, [`Stopped after ${options.maxRedirects} redirects within ${parsed.url.hostname}:`, ...hopLines(outcome.hops)].join('\n'), meta);
  if (outcome.kind === 'offHost')
    return textResult(
      [
        ...hopLines(outcome.hops),
        `The server redirected (${outcome.status}) ${outcome.url.href} to ${outcome.location}, which is on another host (or port, or scheme), so WebFetch did not follow it.`,
        'To read it, call WebFetch again with that URL: the permission rules judge it on its own.',
      ].join('\n'),
      { ...meta, redirectTo: outcome.location, status: outcome.status },
    );
  const { answer, url } = outcome;
  const page = pageText(answer, url);
  const status = `${answer.status}${answer.statusText ? ' ' + answer.statusText : ''}`;
  if ('binary' in page || answer.stopped === 'binary') {
    const length = answer.headers['content-length'];
    const type = 'binary' in page ? page.binary : mediaType(answer.headers['content-type']);
    return errorResult(
      CODES.ASSISTANT_WEBFETCH_BINARY.code,
      `${url.href} is ${type}${length ? ` (${size(Number(length))})` : ''}, not text: WebFetch returns HTML as markdown, text and JSON only, so nothing was downloaded. To keep the file, download it with Bash (curl -o) instead.`,
      { ...meta, status: answer.status, contentType: type },
    );
  }
  const fitted = fitToLimit(page.text, answer.status >= 300 ? ERROR_EXCERPT_CHARS : options.maxChars, input.prompt);
  const header = [
    `URL: ${url.href}`,
    ...hopLines(outcome.hops),
    `Status: ${status} · ${page.type} · ${size(answer.body.length)}${answer.truncated ? ` (cut at the ${size(options.maxBytes)} download limit)` : ''}`,
    ...(page.title ? [`Title: ${page.title}`] : []),
    ...(input.prompt ? [`Focus: ${input.prompt}`] : []),
  ];
  const cut = fitted.omitted ? [`[${fitted.omitted} more characters not shown${fitted.how === 'sections' ? '; kept the sections that mention the focus' : ''}]`] : [];
  const text = [...header, '', fitted.text, ...(cut.length ? ['', ...cut] : [])].join('\n');
  const facts = { ...meta, status: answer.status, contentType: page.type, bytes: answer.body.length, truncatedBytes: answer.truncated, omittedChars: fitted.omitted, ...(page.extracted ? { extracted: page.extracted } : {}) };
  if (answer.status < 200 || answer.status >= 300)
    return errorResult(CODES.ASSISTANT_WEBFETCH_HTTP_STATUS.code, `The server answered ${status}.\n${text}`, facts);
  return textResult(text, facts);
}
