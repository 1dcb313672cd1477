import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTally, tempDir } from '../helpers.js';
import { json, localServer } from '../packs/http/local-server.js';

/** One create whose body schema lives in another document. */
const spec = (ref: string) => ({
  openapi: '3.0.3',
  info: { title: 'suites', version: '1' },
  paths: {
    '/api/suites': {
      post: {
        requestBody: { content: { 'application/json': { schema: { $ref: ref } } } },
        responses: { '201': { description: 'created' } },
      },
    },
  },
});

describe('an OpenAPI document whose $ref names another document', () => {
  it('by URL is refused as the file form is (exit 2, nothing sent), not sent as a body of {}', async () => {
    const api = await localServer((seen, response) => {
      if (seen.url === '/openapi.json') json(response, 200, spec('schemas.json#/Suite'));
      else if (seen.url === '/schemas.json')
        json(response, 200, { Suite: { type: 'object', properties: { title: { type: 'string' } } } });
      else json(response, 201, { id: 7, title: 'x' });
    });
    try {
      const byUrl = await runTally([
        'fish',
        '1 suite',
        '--spec',
        `${api.url}/openapi.json`,
        '--base-url',
        api.url,
      ]);
      const file = join(tempDir(), 'openapi.json');
      writeFileSync(file, JSON.stringify(spec('missing.json#/Suite')));
      const byFile = await runTally(['fish', '1 suite', '--spec', file, '--base-url', api.url]);

      expect(byFile.code, byFile.stderr).toBe(2);
      expect(byUrl.code, byUrl.stderr).toBe(byFile.code);
      expect(byUrl.stderr).toContain(
        `Cannot read the OpenAPI document ${api.url}/openapi.json: its $ref "schemas.json#/Suite" at #/paths/~1api~1suites/post/requestBody/content/application~1json/schema names another document`,
      );
      expect(byUrl.stderr).toMatch(/Save the documents in one folder and pass the file as --spec\.$/m);
      // The document was read; the other one was not fetched, and no create was sent.
      expect(api.seen.map((seen) => `${seen.method} ${seen.url}`)).toEqual(['GET /openapi.json']);
    } finally {
      await api.close();
    }
  });
});
