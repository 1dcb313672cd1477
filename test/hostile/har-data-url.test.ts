import { describe, expect, it } from 'vitest';
import { runTally, tempDir } from '../helpers.js';
import { harEntry, writeHar } from '../packs/http/har-fixtures.js';
import { json, localServer } from '../packs/http/local-server.js';

// A data: URL is content the browser answered itself; its "path" is that content.
const DATA_URL = 'data:application/json,{"token":"DATASECRET31"}';

describe('a HAR entry with a data: URL', () => {
  it('alone: exit 2 naming the data: URL, not `"null" is not a URL`, its content not quoted', async () => {
    const har = writeHar(tempDir(), 'data.har', [
      harEntry('POST', DATA_URL, 201, { body: { title: 'x' }, response: { id: 1 } }),
    ]);
    const run = await runTally(['fish', '1 suite', '--captures', har]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(
      'The captures hold no API requests to learn from (1 skipped: a data: URL, which the browser answers itself (no server saw it)). Record the app',
    );
    expect(run.stderr + run.stdout).not.toMatch(/"null"|DATASECRET31/);
  });

  it('beside the app’s traffic: never taken for the API (its origin "null" outranked a JSON read)', async () => {
    const api = await localServer((_seen, response) => json(response, 200, [{ id: 1, title: 'x' }]));
    try {
      const har = writeHar(tempDir(), 'mixed.har', [
        harEntry('GET', `${api.url}/api/suites`, 200, { response: [{ id: 1, title: 'x' }] }),
        harEntry('POST', DATA_URL, 201, { body: { title: 'x' }, response: { id: 1 } }),
      ]);
      const run = await runTally(['fish', '1 suite', '--captures', har]);
      expect(run.code, run.stderr).toBe(2);
      // The real problem: nothing captured creates a suite.
      expect(run.stderr).toMatch(/no captured endpoint creates "suite" \(creatable: nothing\)/);
      expect(run.stderr + run.stdout).not.toMatch(/"null"|DATASECRET31/);
    } finally {
      await api.close();
    }
  });
});
