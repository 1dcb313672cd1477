import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTally, tempDir } from '../helpers.js';

/** A key with no known shape (an Azure or gateway key): only its value can find it. */
const KEY = 'azkey0a1b2c3d4e5f60718293a4b5c6d7';

/** A provider that refuses the key and echoes it in its error, as some gateways do. */
function echoingProvider(): Promise<Server> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const key = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ error: { message: `Invalid key ${key} for this project`, type: 'auth' } }),
      );
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('the model API key a provider echoes in its error', () => {
  let server: Server;
  beforeAll(async () => {
    server = await echoingProvider();
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reaches neither stdout, the --events stream, the ledger nor the chat file', async () => {
    const root = tempDir('tally-key-echo-');
    const ledgerDir = tempDir('tally-key-ledger-');
    const { port } = server.address() as AddressInfo;
    const result = await runTally(
      [
        '--events',
        '--ledger',
        join(ledgerDir, 'ledger.db'),
        'code',
        '--model',
        'openai:gpt-4o',
        '--root',
        root,
        'say hi',
      ],
      { env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` } },
    );
    // The run did reach the provider and failed on its answer.
    expect(`${result.stdout}${result.stderr}`).toContain('Invalid key');
    expect(result.stdout).not.toContain(KEY);
    expect(result.stderr).not.toContain(KEY);
    for (const file of [...filesUnder(ledgerDir), ...filesUnder(root)])
      expect(readFileSync(file).toString('latin1'), file).not.toContain(KEY);
  }, 60_000);
});
