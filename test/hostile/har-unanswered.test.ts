import { describe, expect, it } from 'vitest';
import { loadCaptures } from '../../src/packs/http/captures/load-captures.js';
import { runTally, tempDir } from '../helpers.js';
import { harEntry, writeHar } from '../packs/http/har-fixtures.js';
import { json, localServer } from '../packs/http/local-server.js';

// HAR status 0: the browser never got an answer (aborted, blocked by an extension or CORS).
describe('a HAR entry the browser never got an answer for (status 0)', () => {
  it('is not the example replayed, though it is the newest capture of the endpoint', async () => {
    const api = await localServer((_seen, response) => json(response, 201, { id: 7, title: 'x' }));
    try {
      const har = writeHar(tempDir(), 'session.har', [
        harEntry('POST', `${api.url}/api/suites`, 201, {
          body: { title: 'Checkout', shape: 'answered' },
          response: { id: 1, title: 'Checkout' },
          at: '2026-11-01T10:00:00.000Z',
        }),
        harEntry('POST', `${api.url}/api/suites`, 0, {
          body: { title: 'Checkout', shape: 'aborted' },
          at: '2026-11-01T10:05:00.000Z',
        }),
      ]);
      const run = await runTally(['fish', '1 suite', '--captures', har, '--base-url', api.url]);
      expect(run.code, run.stderr).toBe(0);
      const posts = api.seen.filter((seen) => seen.method === 'POST');
      expect(posts).toHaveLength(1);
      expect(JSON.parse(posts[0]?.body ?? '{}')).toMatchObject({ shape: 'answered' });
    } finally {
      await api.close();
    }
  });

  it('is dropped with its reason, so a HAR of only unanswered requests teaches nothing and sends nothing', async () => {
    const api = await localServer((_seen, response) => json(response, 201, { id: 7, title: 'x' }));
    try {
      const har = writeHar(tempDir(), 'aborted.har', [
        harEntry('POST', `${api.url}/api/suites`, 0, { body: { title: 'Checkout' } }),
      ]);
      expect(loadCaptures([har]).skipped).toEqual([
        expect.objectContaining({
          reason: expect.stringMatching(/no answer \(status 0: .*aborted or blocked\)/),
        }),
      ]);
      const run = await runTally(['fish', '1 suite', '--captures', har, '--base-url', api.url]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(
        /The captures hold no API requests to learn from \(1 skipped: no answer \(status 0: the request was aborted or blocked\), not an example\)\. Record the app/,
      );
      expect(api.seen).toEqual([]);
    } finally {
      await api.close();
    }
  });
});
