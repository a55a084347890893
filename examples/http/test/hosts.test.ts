import { describe, expect, it } from 'vitest';
import { hostAllowed, parseUrl } from '../src/hosts.js';

const allowed = (url: string, hosts: string[]) => hostAllowed(new URL(url), hosts);

describe('hostAllowed', () => {
  it('matches a host on any port, a host on one port, and subdomains of a wildcard', () => {
    expect(allowed('https://api.example.com/x', ['api.example.com'])).toBe(true);
    expect(allowed('http://api.example.com:8080/x', ['api.example.com'])).toBe(true);
    expect(allowed('http://127.0.0.1:8080/', ['127.0.0.1:8080'])).toBe(true);
    expect(allowed('http://127.0.0.1:8081/', ['127.0.0.1:8080'])).toBe(false);
    expect(allowed('https://example.com/', ['127.0.0.1:443', 'example.com:443'])).toBe(true);
    expect(allowed('https://a.b.example.com/', ['*.example.com'])).toBe(true);
    expect(allowed('https://example.com/', ['*.example.com'])).toBe(false);
    expect(allowed('https://badexample.com/', ['*.example.com'])).toBe(false);
    expect(allowed('https://example.com.evil.test/', ['example.com'])).toBe(false);
    expect(allowed('http://[::1]:9000/', ['[::1]:9000'])).toBe(true);
    expect(allowed('https://API.Example.COM/', ['api.example.com'])).toBe(true);
  });

  it('never allows a scheme other than http and https', () => {
    expect(allowed('file:///etc/passwd', ['localhost', ''])).toBe(false);
    expect(parseUrl('file:///etc/passwd')).toBe('only http and https URLs can be fetched, not file:');
    expect(parseUrl('/relative')).toContain('is not an absolute URL');
  });
});
