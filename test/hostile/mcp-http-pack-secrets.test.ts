import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/demo-app/server.js';
import { tempDir } from '../helpers.js';
import { BUNDLED_HAR, demoApp } from '../packs/http/demo-fixtures.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'tally.js');

/** Everything SQLite holds on disk for this ledger: the database and its write-ahead log. */
function ledgerBytes(path: string): string {
  return [path, `${path}-wal`]
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file).toString('latin1'))
    .join('\n');
}

/** Every regular file under a folder (the state folder, the project root): what is on disk. */
function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('tally mcp --packs http scrubs the same known secrets as tally fish (issue 19, item 3)', () => {
  it('echoes of the recipe password and a --header value leave no trace in the ledger (real SDK client over stdio)', async () => {
    const { app } = await demoApp();
    const root = tempDir();
    const ledgerPath = join(tempDir(), 'ledger.db');
    const apiKey = 'configured-api-key-0042';
    const client = new Client({ name: 'tally-test', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        BIN,
        'mcp',
        '--root',
        root,
        '--packs',
        'http',
        '--captures',
        BUNDLED_HAR,
        '--base-url',
        app.url,
        '--scope',
        '/projects/alpha-shop',
        '--login',
        'demo',
        '--header',
        `x-tenant-key: ${apiKey}`,
      ],
      env: { ...process.env, TALLY_LEDGER: ledgerPath } as Record<string, string>,
      stderr: 'pipe',
    });
    await client.connect(transport);
    try {
      const result = (await client.callTool({
        name: 'request',
        arguments: {
          method: 'POST',
          path: '/api/alpha-shop/suites',
          body: { title: `Echo ${DEMO_PASSWORD} ${apiKey}` },
        },
      })) as { content: { text: string }[]; isError?: boolean };
      expect(result.isError ?? false).toBe(false);
      // The app really stored the echo: the secrets went out in the body.
      expect(
        [...app.store.suites.values()].some((suite) =>
          suite.title.includes(`Echo ${DEMO_PASSWORD} ${apiKey}`),
        ),
      ).toBe(true);
      // And read it back: the response echoes them too.
      await client.callTool({ name: 'lookup', arguments: { path: '/api/alpha-shop/suites' } });
    } finally {
      await client.close();
    }
    const bytes = ledgerBytes(ledgerPath);
    expect(bytes).toContain('Echo [redacted] [redacted]');
    expect(bytes).not.toContain(DEMO_PASSWORD);
    expect(bytes).not.toContain(apiKey);
    // Acceptance 4: every file the session left on disk (ledger, WAL, fail-open log, the root).
    const files = [...filesUnder(dirname(ledgerPath)), ...filesUnder(root)];
    const leaking = files.filter((file) => {
      const text = readFileSync(file).toString('latin1');
      return text.includes(DEMO_PASSWORD) || text.includes(apiKey);
    });
    process.stdout.write(
      `mcp-http-pack-secrets: ${files.length} files on disk after the session, ${leaking.length} holding a known secret\n`,
    );
    expect(files.length).toBeGreaterThan(0);
    expect(leaking).toEqual([]);
  }, 60_000);
});
