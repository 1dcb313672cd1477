// node:https (with node:tls) loads on the first https URL, not with the transport (issue 22): an
// https URL must still go out over TLS, and a run against an http app must not load it at all.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeHttpTransport } from '../../../src/packs/http/client/http-transport.js';
import { tempDir } from '../../helpers.js';
import { json, localServer } from './local-server.js';

const OPENSSL = ['/usr/bin/openssl', '/usr/local/bin/openssl'].find((path) => existsSync(path));

describe('the transport and https', () => {
  it.runIf(OPENSSL)(
    'an https URL goes out over TLS: a self-signed server is refused for its certificate',
    async () => {
      const dir = tempDir();
      execFileSync(
        OPENSSL as string,
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-days',
          '1',
          '-subj',
          '/CN=127.0.0.1',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
        ],
        { stdio: 'ignore' },
      );
      const seen: string[] = [];
      const server = createServer(
        { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
        (request, response) => {
          seen.push(request.url ?? '');
          response.end('{}');
        },
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const sent = nodeHttpTransport(new URL(`https://127.0.0.1:${port}/items`), {
          method: 'GET',
          headers: {},
        });
        // Plain HTTP to a TLS port would fail otherwise (a reset or a parse error), not on the certificate.
        await expect(sent).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
        expect(seen).toEqual([]);
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  );

  it('a request to an http URL answers without loading node:https', async () => {
    const server = await localServer((seen, response) => json(response, 200, { path: seen.url }));
    try {
      const module = join(
        import.meta.dirname,
        '..',
        '..',
        '..',
        'src',
        'packs',
        'http',
        'client',
        'http-transport.ts',
      );
      const script = `
        const { nodeHttpTransport } = await import(${JSON.stringify(module)});
        const answer = await nodeHttpTransport(new URL(${JSON.stringify(`${server.url}/items`)}), { method: 'GET', headers: {} });
        const https = process.moduleLoadList.some((name) => name === 'NativeModule https');
        console.log(JSON.stringify({ status: answer.status, text: answer.text, https }));
        process.exit(0);`;
      const out = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          ['--import', 'tsx', '--input-type=module', '-e', script],
          (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(stdout)),
        ),
      );
      expect(JSON.parse(out)).toEqual({ status: 200, text: '{"path":"/items"}', https: false });
    } finally {
      await server.close();
    }
  });
});
