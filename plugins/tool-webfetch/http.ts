import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import type { ResolvedAddress } from './address.js';

/** One HTTP exchange's outcome: status, headers and (part of) the body. */
export interface HttpAnswer {
  status: number;
  statusText: string;
  headers: IncomingMessage['headers'];
  /** The decoded body, at most `maxBytes`. */
  body: Buffer;
  /** The body was longer than `maxBytes` and was cut there. */
  truncated: boolean;
  /** Why the body was not read (`accept`'s answer): a redirect, a binary type. */
  stopped?: string;
}

/** How one GET is made. */
export interface GetOptions {
  /** The addresses to connect to (resolved and judged before): no second DNS answer is trusted. */
  addresses: ResolvedAddress[];
  maxBytes: number;
  signal: AbortSignal;
  userAgent: string;
  /** Decides from the status and headers whether the body is worth reading; a string stops there, with that reason. */
  accept: (headers: IncomingMessage['headers'], status: number) => string | undefined;
}

/** Thrown for an exchange that failed (network, TLS, a broken body) or was aborted. */
export class HttpFailure extends Error {}

/** A lookup that answers with the pinned addresses only. */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_host, options, callback) => {
    const all = (options as { all?: boolean }).all;
    const family = (options as { family?: number }).family;
    const usable = addresses.filter((a) => !family || a.family === family);
    if (!usable.length) return callback(Object.assign(new Error('no usable address'), { code: 'ENOTFOUND' }), '', 4);
    if (all) (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, usable);
    else callback(null, usable[0]!.address, usable[0]!.family);
  };
}

/** The body stream, decompressed as the server encoded it (unknown encodings pass through as bytes). */
function decoded(response: IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return response.pipe(createGunzip());
  if (encoding === 'deflate') return response.pipe(createInflate());
  if (encoding === 'br') return response.pipe(createBrotliDecompress());
  return response;
}

/**
 * One GET (no redirect following: the caller judges each hop). The body is counted after
 * decompression, so a small compressed bomb stops at `maxBytes` like a big plain body.
 */
export function get(url: URL, options: GetOptions): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) return reject(new HttpFailure('aborted'));
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(url, {
      method: 'GET',
      lookup: pinnedLookup(options.addresses),
      headers: { 'user-agent': options.userAgent, accept: 'text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.5', 'accept-encoding': 'gzip, deflate, br' },
      agent: false,
    });
    let settled = false;
    const finish = (error: Error | undefined, answer?: HttpAnswer) => {
      if (settled) return;
      settled = true;
      options.signal.removeEventListener('abort', onAbort);
      request.destroy();
      if (error) reject(error);
      else resolve(answer!);
    };
    const onAbort = () => finish(new HttpFailure('aborted'));
    options.signal.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error) => finish(new HttpFailure(describe(error))));
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const refusal = options.accept(response.headers, status);
      if (refusal) return finish(undefined, { status, statusText: response.statusMessage ?? '', headers: response.headers, body: Buffer.alloc(0), truncated: false, stopped: refusal });
      const chunks: Buffer[] = [];
      let size = 0;
      let ended = false;
      const body = decoded(response);
      const done = (truncated: boolean) => {
        // Stop reading (and decompressing) at once: nothing past the cap is wanted.
        body.removeAllListeners('data');
        body.destroy();
        finish(undefined, { status, statusText: response.statusMessage ?? '', headers: response.headers, body: Buffer.concat(chunks).subarray(0, options.maxBytes), truncated });
      };
      body.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size > options.maxBytes) done(true);
      });
      body.on('end', () => {
        ended = true;
        done(false);
      });
      // A connection cut before the end of the body is a failure, not a short page.
      body.on('close', () => ended || finish(new HttpFailure('the response broke off before its end')));
      body.on('error', (error) => finish(new HttpFailure(`the response broke off: ${describe(error)}`)));
      response.on('error', (error) => finish(new HttpFailure(`the response broke off: ${describe(error)}`)));
    });
    request.end();
  });
}

function describe(error: Error & { code?: string }): string {
  return error.code ? `${error.code}: ${error.message}` : error.message;
}
