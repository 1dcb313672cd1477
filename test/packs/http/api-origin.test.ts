import { describe, expect, it } from 'vitest';
import { buildCapture } from '../../../src/packs/http/captures/build-capture.js';
import { apiOriginOf } from '../../../src/packs/http/captures/filter-captures.js';

let next = 0;
const capture = (method: string, url: string, status: number, json?: string) =>
  buildCapture({
    id: `c${next++}`,
    session: 's',
    method,
    url: new URL(url),
    requestHeaders: {},
    status,
    responseHeaders: json ? { 'content-type': 'application/json' } : {},
    ...(json ? { responseText: json } : {}),
  }).capture;

describe("the captures' API origin: the most API-like traffic, not the most writes", () => {
  it('analytics beacons (many writes to one endpoint, no JSON answer) lose to the app’s own creates', () => {
    const beacons = Array.from({ length: 5 }, () => capture('POST', 'http://127.0.0.1:4799/collect', 204));
    const app = [
      capture('GET', 'http://127.0.0.1:4790/api/p/suites', 200, '{"data":[]}'),
      capture('POST', 'http://127.0.0.1:4790/api/p/suites', 201, '{"data":{"id":7}}'),
    ];
    expect(apiOriginOf([...beacons, ...app])).toBe('http://127.0.0.1:4790');
    expect(apiOriginOf([...app, ...beacons])).toBe('http://127.0.0.1:4790');
  });

  it('more distinct JSON write endpoints win; with none, JSON reads decide; a tie keeps the first seen', () => {
    const a = [
      capture('POST', 'http://a.test/api/suites', 201, '{"id":1}'),
      capture('POST', 'http://a.test/api/tests', 201, '{"id":2}'),
    ];
    const b = Array.from({ length: 4 }, () => capture('POST', 'http://b.test/api/suites', 201, '{"id":1}'));
    expect(apiOriginOf([...b, ...a])).toBe('http://a.test');
    const readsOnly = [
      capture('GET', 'http://c.test/api/x', 200, '{}'),
      capture('GET', 'http://d.test/api/x', 200, '{}'),
      capture('GET', 'http://d.test/api/y', 200, '{}'),
    ];
    expect(apiOriginOf(readsOnly)).toBe('http://d.test');
    expect(
      apiOriginOf([
        capture('GET', 'http://e.test/x', 200, '{}'),
        capture('GET', 'http://f.test/x', 200, '{}'),
      ]),
    ).toBe('http://e.test');
    expect(apiOriginOf([])).toBeUndefined();
  });
});
