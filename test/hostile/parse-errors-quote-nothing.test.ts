import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecipeStore } from '../../src/agents/fisherman/recipes/recipe-store.js';
import { jsonErrorOffset, parseFailure } from '../../src/core/parse-error-place.js';
import { runTally, tempDir } from '../helpers.js';
import { localServer } from '../packs/http/local-server.js';

// A token right before the fault: every parser's message quoted it (JSON.parse ~10 characters
// each side, the YAML parsers the whole line).
const SECRET = 'tok_live_Q7x9SECRET42';
const shown = (run: { stdout: string; stderr: string }) => run.stdout + run.stderr;

describe('a user file that does not parse is refused by position, never by quoting it', () => {
  it('a hand-broken HAR: exit 2, line and column, no part of the token', async () => {
    const dir = tempDir();
    const har = join(dir, 'broken.har');
    writeFileSync(
      har,
      `{"log":{"entries":[{"request":{"method":"GET","url":"http://127.0.0.1/a",\n"headers":[{"name":"authorization","value":"Bearer ${SECRET}"} x]}}]}}`,
    );
    const run = await runTally(['fish', '1 suite', '--captures', har]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/broken\.har: not valid JSON at line 2, column 76\. Re-export the HAR/);
    expect(shown(run)).not.toMatch(/SECRET|Bearer|authorization/);
  });

  it('an OpenAPI file, JSON or YAML: exit 2, the file and the position, no line of it', async () => {
    const dir = tempDir();
    const json = join(dir, 'api.json');
    writeFileSync(json, `{"openapi":"3.0.3","x-token":"${SECRET}" x, "paths":{}}`);
    const yaml = join(dir, 'api.yaml');
    writeFileSync(yaml, `openapi: 3.0.3\nx-token: "${SECRET}" x: y\npaths: {}\n`);
    for (const [spec, place] of [
      [json, 'line 1, column 54'],
      [yaml, 'line 2, column 34'],
    ] as const) {
      const run = await runTally(['fish', '1 suite', '--spec', spec, '--base-url', 'http://127.0.0.1:9']);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(`${spec} is not valid JSON or YAML at ${place}.`);
      expect(shown(run)).not.toMatch(/SECRET|x-token/);
    }
  });

  it('an OpenAPI document by URL: exit 2, the position, no line of it', async () => {
    const server = await localServer((_seen, response) => {
      response.writeHead(200, { 'content-type': 'application/yaml' });
      response.end(`openapi: 3.0.3\nx-token: "${SECRET}" x: y\npaths: {}\n`);
    });
    try {
      const run = await runTally(['fish', '1 suite', '--spec', `${server.url}/openapi.yaml`]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/the document is not valid JSON or YAML at line 2, column \d+\./);
      expect(shown(run)).not.toMatch(/SECRET|x-token/);
    } finally {
      await server.close();
    }
  });

  it('an explorbot capture whose front matter does not parse: skipped by the file’s line, the header not quoted', async () => {
    const dir = join(tempDir(), 'requests');
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'xhr_001_POST_api_suites.request.yaml'),
      `---\nmethod: POST\nfullUrl: http://127.0.0.1:9/api/suites\nstatus: 201\nheaders:\n  authorization: Bearer ${SECRET} x: y\n---\n{}\n`,
    );
    const run = await runTally(['fish', '1 suite', '--captures', dir]);
    expect(run.code, run.stderr).toBe(2);
    expect(shown(run)).not.toMatch(/SECRET/);
    const { loadCaptures } = await import('../../src/packs/http/captures/load-captures.js');
    const [skipped] = loadCaptures([dir]).skipped;
    expect(skipped?.reason).toMatch(/^the front matter is not valid YAML at line 6, column \d+$/);
  });

  it('a login recipe and a saved recipe: the position, no part of the token', async () => {
    const dir = tempDir();
    const login = join(dir, 'login.json');
    writeFileSync(login, `{"steps":[{"body":{"password":"${SECRET}" x}}]}`);
    const run = await runTally(['fish', '1 suite', '--spec', login, '--login', login]);
    expect(shown(run)).toMatch(/login\.json: not valid JSON at line 1, column 55\. Fix it there/);
    expect(shown(run)).not.toMatch(/SECRET|password/);

    const recipes = join(dir, 'recipes');
    mkdirSync(recipes);
    writeFileSync(join(recipes, 'r1.json'), `{"id":"r1","headers":{"x-api-key":"${SECRET}" x}}`);
    const listed = new RecipeStore(recipes).list();
    expect(listed.unusable).toEqual([
      {
        file: join(recipes, 'r1.json'),
        why: expect.stringMatching(/is not valid JSON at line 1, column 59; delete it/),
      },
    ]);
    expect(JSON.stringify(listed)).not.toMatch(/SECRET/);
  });
});

describe('jsonErrorOffset', () => {
  it('finds a fault exactly when JSON.parse fails, on mutated JSON', () => {
    const mutated = fc
      .tuple(fc.json(), fc.nat(), fc.constantFrom('', ',', '}', ']', '"', 'x', '\n', '\\', ':', '{', '['))
      .map(([text, at, insert]) => {
        const index = at % (text.length + 1);
        return insert === ''
          ? text.slice(0, index) + text.slice(index + 1)
          : text.slice(0, index) + insert + text.slice(index);
      });
    fc.assert(
      fc.property(mutated, (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        expect(jsonErrorOffset(text) === undefined).toBe(valid);
      }),
      { numRuns: 3000 },
    );
  });

  it('measures a document nested 100,000 deep without recursion, and says when the text ends early', () => {
    expect(jsonErrorOffset(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toBeUndefined();
    const text = '{"a": [1, 2';
    expect(parseFailure('JSON', new SyntaxError('x'), text)).toBe(
      'not valid JSON at line 1, column 12 (the text ends too early)',
    );
  });
});
