// The kit's fetch over TLS: certificates are verified (a self-signed one is refused like fetch
// refuses it), and NODE_EXTRA_CA_CERTS is honoured as Node's https honours it.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFetch } from '../../core/kits/provider/index.js';
import { tempDir } from '../support/project.js';

const FETCH = fileURLToPath(new URL('../../dist/core/kits/provider/http/fetch.js', import.meta.url));

/** A self-signed certificate for 127.0.0.1, made with openssl; undefined without it. */
function selfSigned(): { cert: string; key: string; certFile: string } | undefined {
  const dir = tempDir();
  const [certFile, keyFile] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  } catch (error) {
    if (process.env.CI) throw error;
    console.log(`skipping the TLS tests: openssl could not make a certificate (${(error as Error).message})`);
    return undefined;
  }
  return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), certFile };
}

const tls = selfSigned();
let server: Server;
let url: string;

beforeAll(async () => {
  if (!tls) return;
  server = createServer({ cert: tls.cert, key: tls.key }, (req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('over tls'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  if (!server) return;
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe.skipIf(!tls)('nodeFetch over https', () => {
  it('refuses a certificate no trusted CA signed, as fetch failed', async () => {
    const error = (await nodeFetch(url).catch((e: unknown) => e)) as TypeError & { cause: NodeJS.ErrnoException };
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('fetch failed');
    expect(error.cause.code).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY/);
  });

  it('trusts it in a process started with NODE_EXTRA_CA_CERTS naming it', async () => {
    const script = `const { nodeFetch } = await import(${JSON.stringify(FETCH)}); const r = await nodeFetch(process.argv[1]); process.stdout.write(await r.text());`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, url], { env: { ...process.env, NODE_EXTRA_CA_CERTS: tls!.certFile } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (err += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, err).toBe(0);
    expect(out).toBe('over tls');
  });
});
