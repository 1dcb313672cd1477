import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TallyError } from '../../../src/core/errors.js';
import type { AuthSample } from '../../../src/packs/http/captures/capture.js';
import { CaptureFormatError } from '../../../src/packs/http/captures/capture-error.js';
import { currentAuthHeaders, loadCaptures } from '../../../src/packs/http/captures/load-captures.js';
import { parseExplorbotDir } from '../../../src/packs/http/captures/parse-explorbot.js';
import { parseHar } from '../../../src/packs/http/captures/parse-har.js';
import { tempDir } from '../../helpers.js';
import { BUNDLED_HAR, harEntry, writeHar } from './demo-fixtures.js';

describe('HAR import', () => {
  it('keeps writes (including 204 and 422) and successful JSON reads; drops pages and assets with reasons', () => {
    const set = loadCaptures([BUNDLED_HAR]);
    const writes = set.captures.filter((capture) => capture.method !== 'GET');
    expect(writes.map((capture) => capture.status)).toContain(204);
    expect(writes.map((capture) => capture.status)).toContain(422);
    expect(set.captures.every((capture) => capture.provenance === 'browser')).toBe(true);
    expect(
      set.captures.filter((capture) => capture.method === 'GET').every((capture) => capture.status < 400),
    ).toBe(true);
    expect(set.skipped.some((skip) => /page navigation/.test(skip.reason))).toBe(true);
    expect(set.captures.some((capture) => capture.path === '/login')).toBe(false);
  });

  it('drops other origins, static assets and preflights', () => {
    const dir = tempDir();
    const har = writeHar(dir, 'mixed.har', [
      harEntry('POST', 'http://app.test/api/x/items', 201, { body: { title: 'a' }, response: { id: 1 } }),
      harEntry('POST', 'http://analytics.test/collect', 204, { body: { e: 1 } }),
      harEntry('GET', 'http://app.test/static/app.js', 200),
      harEntry('OPTIONS', 'http://app.test/api/x/items', 204),
    ]);
    const set = loadCaptures([har]);
    expect(set.apiOrigin).toBe('http://app.test');
    expect(set.captures.map((capture) => `${capture.method} ${capture.url}`)).toEqual([
      'POST http://app.test/api/x/items',
    ]);
    expect(set.skipped.map((skip) => skip.reason)).toEqual([
      expect.stringContaining('other origin http://analytics.test'),
      expect.stringContaining('static asset'),
      expect.stringContaining('CORS preflight'),
    ]);
  });

  it('keeps credentials in memory only: headers are redacted in captures, cookies never kept', () => {
    const dir = tempDir();
    const har = writeHar(dir, 'auth.har', [
      harEntry('POST', 'http://app.test/api/items', 201, {
        body: { title: 'a' },
        headers: { 'x-csrf-token': 'CSRF-OLD', cookie: 'sid=COOKIE-OLD', authorization: 'Bearer TOKEN-1' },
      }),
    ]);
    const set = loadCaptures([har]);
    expect(JSON.stringify(set.captures)).not.toMatch(/CSRF-OLD|COOKIE-OLD|TOKEN-1/);
    expect(currentAuthHeaders(set.auth)).toEqual({
      'x-csrf-token': 'CSRF-OLD',
      authorization: 'Bearer TOKEN-1',
    });
  });

  it('uses auth headers from the newest capture session only, newest first, never stale ones', () => {
    const auth: AuthSample[] = [
      { session: 'old.har', timestamp: '2026-10-01T00:00:00.000Z', headers: { authorization: 'Bearer OLD' } },
      {
        session: 'new.har',
        timestamp: '2026-11-01T00:00:00.000Z',
        headers: { authorization: 'Bearer NEW-1' },
      },
      {
        session: 'new.har',
        timestamp: '2026-11-01T00:05:00.000Z',
        headers: { authorization: 'Bearer NEW-2' },
      },
      { session: 'stale', headers: { 'x-api-key': 'STALE' } },
    ];
    expect(currentAuthHeaders(auth)).toEqual({ authorization: 'Bearer NEW-2' });
  });

  it.each([
    ['not json', '{"log":', /not valid JSON/],
    ['no log', '{}', /log: /],
    ['entries not an array', '{"log":{"entries":{}}}', /log\.entries: /],
    [
      'url missing',
      '{"log":{"entries":[{"request":{"method":"GET"},"response":{"status":200}}]}}',
      /log\.entries\[0\]\.request\.url/,
    ],
    [
      'relative url',
      '{"log":{"entries":[{"request":{"method":"GET","url":"/x"},"response":{"status":200}}]}}',
      /"\/x" is not an absolute URL/,
    ],
  ])('a malformed HAR (%s) is a clear CaptureFormatError naming the place', (_name, text, message) => {
    expect(() => parseHar(text, 'bad.har')).toThrow(CaptureFormatError);
    expect(() => parseHar(text, 'bad.har')).toThrow(message);
  });

  it('property: arbitrary input never crashes the importer with anything but a CaptureFormatError', () => {
    const entryLike = fc.record(
      {
        startedDateTime: fc.oneof(fc.string(), fc.constant('2026-11-01T00:00:00Z')),
        request: fc.record(
          {
            method: fc.string(),
            url: fc.oneof(fc.webUrl(), fc.string()),
            headers: fc.array(fc.record({ name: fc.string(), value: fc.string() })),
          },
          { requiredKeys: [] },
        ),
        response: fc.record(
          {
            status: fc.oneof(fc.integer(), fc.string()),
            content: fc.record({
              text: fc.string(),
              mimeType: fc.constantFrom('application/json', 'text/html'),
            }),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    );
    const harLike = fc.oneof(
      fc.string(),
      fc.json(),
      fc
        .record({ log: fc.record({ entries: fc.array(entryLike, { maxLength: 4 }) }) })
        .map((value) => JSON.stringify(value)),
    );
    fc.assert(
      fc.property(harLike, (text) => {
        try {
          const { captures } = parseHar(text, 'fuzz.har');
          return captures.every(
            (capture) => typeof capture.path === 'string' && capture.provenance === 'browser',
          );
        } catch (error) {
          return error instanceof CaptureFormatError;
        }
      }),
      { numRuns: 400 },
    );
  });

  it('a missing captures path is a clear error', () => {
    expect(() => loadCaptures(['/nonexistent/capture.har'])).toThrow(
      /No captures at \/nonexistent\/capture.har/,
    );
  });
});

describe('explorbot directory import', () => {
  function explorbotDir() {
    const dir = join(tempDir(), 'output', 'requests');
    mkdirSync(dir, { recursive: true });
    const write = (id: string, front: string, body = '', response?: unknown) => {
      writeFileSync(join(dir, `${id}.request.yaml`), `---\n${front}\n---\n${body}`);
      if (response !== undefined) writeFileSync(join(dir, `${id}.response.json`), JSON.stringify(response));
    };
    write(
      'xhr_001_POST_api_suites',
      'method: POST\nurl: /api/alpha/suites\nfullUrl: http://app.test/api/alpha/suites\nheaders:\n  content-type: application/json\n  x-csrf-token: "tok-1"\nstatus: 201\nstatusText: Created\ntimestamp: 2026-11-01T10:00:00Z',
      '{"title":"Smoke"}',
      { data: { id: 7, title: 'Smoke' } },
    );
    // Agent-made: a predecessor's rejected request must never become an example.
    write(
      '012_POST_api_suites',
      'method: POST\nurl: /api/alpha/suites\nfullUrl: http://app.test/api/alpha/suites\nstatus: 422\ntimestamp: 2026-11-02T10:00:00Z',
      '{"name":"wrong field"}',
    );
    write(
      'xhr_002_POST_api_tests',
      'method: POST\nfullUrl: http://app.test/api/alpha/tests\nheaders:\n  x-multi: |\n    line one\n    line two\nstatus: 201',
      '{}',
    );
    write(
      'xhr_003_POST_api_tests',
      'method: POST\nfullUrl: http://app.test/api/alpha/tests\nheaders:\n  content-type: application/json\nstatus: 201',
      '{not json',
    );
    writeFileSync(
      join(dir, 'xhr_004_GET_api_suites.request.yaml'),
      '---\r\nmethod: GET\r\nfullUrl: http://app.test/api/alpha/suites\r\nstatus: 200\r\n---\r\n',
    );
    writeFileSync(join(dir, 'xhr_004_GET_api_suites.response.json'), '{"data":[]}');
    writeFileSync(join(dir, 'xhr_005_broken.request.yaml'), 'no front matter at all');
    return dir;
  }

  it('imports xhr_* files only, skips unreadable ones with a reason, and treats missing timestamps as stale', () => {
    const dir = explorbotDir();
    const parsed = parseExplorbotDir(dir);
    expect(parsed.captures.map((capture) => capture.id.split('/').at(-1))).toEqual([
      'xhr_001_POST_api_suites.request.yaml',
      'xhr_004_GET_api_suites.request.yaml',
    ]);
    expect(parsed.captures[0]).toMatchObject({
      method: 'POST',
      path: '/api/alpha/suites',
      status: 201,
      requestBody: { title: 'Smoke' },
      responseBody: { data: { id: 7 } },
      timestamp: '2026-11-01T10:00:00.000Z',
    });
    expect(parsed.captures[1]?.timestamp).toBeUndefined();
    const reasons = Object.fromEntries(
      parsed.skipped.map((skip) => [skip.source.split('/').at(-1), skip.reason]),
    );
    expect(reasons['012_POST_api_suites.request.yaml']).toMatch(/made by an agent/);
    expect(reasons['xhr_002_POST_api_tests.request.yaml']).toMatch(/spans several lines/);
    expect(reasons['xhr_003_POST_api_tests.request.yaml']).toMatch(/not valid JSON/);
    expect(reasons['xhr_005_broken.request.yaml']).toMatch(/no front-matter/);
    expect(parsed.auth).toEqual([
      { session: dir, timestamp: '2026-11-01T10:00:00.000Z', headers: { 'x-csrf-token': 'tok-1' } },
    ]);
  });

  it('property: arbitrary front matter and bodies are skipped with a reason, never a crash', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (front, body) => {
        const dir = tempDir();
        writeFileSync(join(dir, 'xhr_1_X.request.yaml'), `---\n${front}\n---\n${body}`);
        const parsed = parseExplorbotDir(dir);
        return parsed.captures.length + parsed.skipped.length === 1;
      }),
      { numRuns: 150 },
    );
  });

  it('errors are TallyErrors with stable codes', () => {
    try {
      parseHar('[]', 'x.har');
    } catch (error) {
      expect(error).toBeInstanceOf(TallyError);
      expect((error as TallyError).code).toBe('CAPTURE_INVALID');
    }
    expect.assertions(2);
  });
});
