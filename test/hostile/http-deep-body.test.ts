import { describe, expect, it } from 'vitest';
import { freshenExample } from '../../src/packs/http/endpoints/freshen-example.js';
import { MAX_BODY_DEPTH, refuseDeepBody } from '../../src/packs/http/tools/body-depth.js';
import { runTally, tempDir } from '../helpers.js';
import { harEntry, writeHar } from '../packs/http/har-fixtures.js';
import { json, localServer } from '../packs/http/local-server.js';

/** `{ title, next: { next: … } }`, `depth` objects deep, built without recursion. */
function nested(depth: number): Record<string, unknown> {
  const top: Record<string, unknown> = { title: 'Checkout', email: 'qa@example.test' };
  let at = top;
  for (let level = 1; level < depth; level++) {
    const next: Record<string, unknown> = {};
    at.next = next;
    at = next;
  }
  return top;
}

describe('a captured body nested thousands deep', () => {
  it('is freshened without cloning it whole (structuredClone overflowed the stack and aborted the run)', () => {
    const body = nested(5000);
    const fresh = freshenExample(body, 'Suite 1 · abc123', { run: 'abc123', serial: 1 });
    expect(fresh.title).toBe('Suite 1 · abc123');
    expect(fresh.email).not.toBe('qa@example.test');
    // The captured example is left as it was.
    expect(body.title).toBe('Checkout');
  });

  it('is refused before sending, as a rejected call, at the limit and not below it', () => {
    expect(() => refuseDeepBody(nested(MAX_BODY_DEPTH))).not.toThrow();
    expect(() => refuseDeepBody(nested(MAX_BODY_DEPTH + 1))).toThrow(
      /nested more than 200 levels deep; nothing was sent/,
    );
    expect(() => refuseDeepBody(nested(5000))).toThrow(/nothing was sent/);
  });
});

describe('a captured JSON array body nested 5,000 deep', () => {
  const deepArray = `${'['.repeat(5000)}${']'.repeat(5000)}`;

  it('is freshened without a stack overflow (structuredClone of a non-object body aborted the run)', () => {
    const body = JSON.parse(deepArray);
    expect(() => freshenExample(body, 'Suite 1 · abc123', { run: 'abc123', serial: 1 })).not.toThrow();
    // A shallow array is still a copy: the captured example stays as it was.
    const shallow = [{ title: 'Checkout' }];
    const fresh = freshenExample(shallow, 'x', { run: 'abc123', serial: 1 }) as unknown;
    expect(fresh).toEqual(shallow);
    expect(fresh).not.toBe(shallow);
  });

  it('in a HAR: `tally fish` refuses it as BODY_TOO_DEEP with nothing sent, not an aborted run', async () => {
    const api = await localServer((_seen, response) => json(response, 201, { id: 7, title: 'x' }));
    try {
      const har = writeHar(tempDir(), 'deep.har', [
        {
          ...harEntry('POST', `${api.url}/api/suites`, 201, { response: { id: 1, title: 'x' } }),
          request: {
            method: 'POST',
            url: `${api.url}/api/suites`,
            headers: [{ name: 'content-type', value: 'application/json' }],
            postData: { mimeType: 'application/json', text: deepArray },
          },
        },
      ]);
      const run = await runTally(['fish', '1 suite', '--captures', har, '--base-url', api.url]);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stdout).toMatch(/nested more than 200 levels deep; nothing was sent/);
      expect(run.stdout).not.toMatch(/Maximum call stack|aborted|outcome is unknown/);
      expect(api.seen.filter((seen) => seen.method === 'POST')).toEqual([]);
    } finally {
      await api.close();
    }
  });
});
