// The Headers and Response classes the kit's fetch answers with, and that the SDK bundles use in
// place of Node's globals: they must behave like the WHATWG ones on everything the SDKs touch.
import { describe, expect, it } from 'vitest';
import { HttpHeaders, HttpResponse } from '../../core/kits/provider/http/index.js';

describe('HttpHeaders', () => {
  it('builds from a record, pairs or other headers, lower-cases names and joins repeated values', () => {
    const headers = new HttpHeaders({ 'Content-Type': 'application/json', Accept: ['a', 'b'], skipped: undefined });
    expect(headers.get('content-type')).toBe('application/json');
    expect(headers.get('ACCEPT')).toBe('a, b');
    expect(headers.has('skipped')).toBe(false);
    const copy = new HttpHeaders(headers);
    copy.append('X-B', ' spaced ');
    copy.set('accept', 'c');
    expect([...copy]).toEqual([['accept', 'c'], ['content-type', 'application/json'], ['x-b', 'spaced']]);
    expect([...copy.keys()]).toEqual(['accept', 'content-type', 'x-b']);
    expect([...copy.values()]).toEqual(['c', 'application/json', 'spaced']);
    copy.delete('X-B');
    const seen: string[] = [];
    copy.forEach((value, name) => seen.push(`${name}=${value}`));
    expect(seen).toEqual(['accept=c', 'content-type=application/json']);
    expect(new HttpHeaders([['a', '1'], ['a', '2']]).get('a')).toBe('1, 2');
    expect(new HttpHeaders().get('missing')).toBeNull();
  });

  it('refuses bad names, values with CR/LF/NUL, and malformed pairs', () => {
    expect(() => new HttpHeaders({ 'a b': 'x' })).toThrow(TypeError);
    expect(() => new HttpHeaders({ a: 'x\ny' })).toThrow(TypeError);
    expect(() => new HttpHeaders({ a: 'x\0' })).toThrow(TypeError);
    expect(() => new HttpHeaders([['a', '1', '2']] as unknown as [string, string][])).toThrow(TypeError);
  });

  it('counts the platform\'s Headers as headers (instanceof by tag) and reads them', () => {
    const platform = new Headers({ 'X-From': 'undici' });
    expect(platform instanceof HttpHeaders).toBe(true);
    expect(new HttpHeaders() instanceof HttpHeaders).toBe(true);
    expect({} instanceof HttpHeaders).toBe(false);
    expect(new HttpHeaders(platform).get('x-from')).toBe('undici');
    expect(new Headers(new HttpHeaders({ a: '1' })).get('a')).toBe('1');
    expect(Object.prototype.toString.call(new HttpHeaders())).toBe('[object Headers]');
  });
});

describe('HttpResponse', () => {
  it('is built like new Response(body, init): text gets a content type, status defaults to 200', async () => {
    const response = new HttpResponse('{"a":1}', { headers: { 'x-id': '7' } });
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(response.headers.get('content-type')).toBe('text/plain;charset=UTF-8');
    expect(response.headers.get('x-id')).toBe('7');
    expect(await response.json()).toEqual({ a: 1 });
    expect(response.bodyUsed).toBe(true);
    expect(() => new HttpResponse(null, { status: 99 })).toThrow(RangeError);
    expect(new HttpResponse(null, { status: 204 }).body).toBeNull();
  });

  it('clones by teeing the body, so both copies read it all', async () => {
    const stream = new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(new TextEncoder().encode('héllo ')), c.enqueue(new TextEncoder().encode('world')), c.close()) });
    const response = new HttpResponse(stream, { status: 201, statusText: 'Created', headers: { 'content-type': 'text/plain' } });
    const copy = response.clone();
    expect(copy.status).toBe(201);
    expect(copy.statusText).toBe('Created');
    expect(await copy.text()).toBe('héllo world');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new TextEncoder().encode('héllo world'));
    expect(() => response.clone()).toThrow(TypeError);
  });

  it('reads bytes into a buffer of its own, and as a typed Blob', async () => {
    const bytes = await new HttpResponse(new Uint8Array([1, 2, 3])).arrayBuffer();
    expect(bytes.byteLength).toBe(3);
    const blob = await new HttpResponse('x', { headers: { 'content-type': 'text/x' } }).blob();
    expect(blob.type).toBe('text/x');
    expect(await blob.text()).toBe('x');
    expect(new HttpResponse() instanceof HttpResponse).toBe(true);
    expect(new Response('') instanceof HttpResponse).toBe(true);
  });
});
