/** What a `Headers` can be built from, as `fetch` takes it. */
export type HeadersInit = HttpHeaders | Iterable<readonly [string, string]> | Record<string, string | readonly string[] | undefined>;

// RFC 9110 token characters; values are byte strings without NUL, CR or LF (header injection).
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAD_VALUE = /[\0\r\n]|[^\x00-\xff]/;
// Leading and trailing HTTP whitespace is stripped, as the Fetch standard normalizes values.
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

function checkedName(name: string): string {
  const text = String(name);
  if (!TOKEN.test(text)) throw new TypeError(`Headers: invalid header name ${JSON.stringify(text)}`);
  return text.toLowerCase();
}

function checkedValue(name: string, value: string): string {
  const text = String(value).replace(EDGE_WHITESPACE, '');
  if (BAD_VALUE.test(text)) throw new TypeError(`Headers: invalid value for header ${JSON.stringify(name)}`);
  return text;
}

/**
 * The WHATWG `Headers` class, small: lower-cased names, values joined with ", " on read, iteration
 * sorted by name. Node's global `Headers` loads its bundled undici (~50 ms CPU, ~12 MiB), which a
 * model request does not need. `instanceof` also accepts any object that tags itself `Headers`
 * (undici's included), so headers from the platform or another copy of this class are read as
 * headers, not as a plain record.
 */
export class HttpHeaders {
  readonly #values = new Map<string, string[]>();

  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && Object.prototype.toString.call(value) === '[object Headers]';
  }

  constructor(init?: HeadersInit | null) {
    if (init === undefined || init === null) return;
    if (typeof init !== 'object') throw new TypeError('Headers: expected an object, an array of pairs or Headers');
    if (Symbol.iterator in init) {
      for (const pair of init as Iterable<readonly [string, string]>) {
        if (!pair || typeof pair === 'string' || (pair as readonly string[]).length !== 2) throw new TypeError('Headers: each pair must be [name, value]');
        this.append(pair[0], pair[1]);
      }
      return;
    }
    for (const [name, value] of Object.entries(init)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) this.append(name, one as string);
    }
  }

  get [Symbol.toStringTag](): string {
    return 'Headers';
  }

  append(name: string, value: string): void {
    const key = checkedName(name);
    const text = checkedValue(key, value);
    const list = this.#values.get(key);
    if (list) list.push(text);
    else this.#values.set(key, [text]);
  }

  set(name: string, value: string): void {
    const key = checkedName(name);
    this.#values.set(key, [checkedValue(key, value)]);
  }

  delete(name: string): void {
    this.#values.delete(checkedName(name));
  }

  get(name: string): string | null {
    return this.#values.get(checkedName(name))?.join(', ') ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(checkedName(name));
  }

  getSetCookie(): string[] {
    return [...(this.#values.get('set-cookie') ?? [])];
  }

  forEach(callback: (value: string, name: string, headers: HttpHeaders) => void, thisArg?: unknown): void {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of [...this.#values.keys()].sort()) {
      const values = this.#values.get(name);
      if (values) yield [name, values.join(', ')];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  /** The headers as node:http takes them: one line per name, values joined as `fetch` sends them. */
  toWire(): Record<string, string> {
    return Object.fromEntries(this.entries());
  }
}
