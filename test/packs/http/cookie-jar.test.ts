import { describe, expect, it } from 'vitest';
import { CookieJar } from '../../../src/packs/http/client/cookie-jar.js';

const NOW = Date.parse('2030-01-01T00:00:00Z');

describe('CookieJar keeps cookies as a browser keeps them', () => {
  it('a later Set-Cookie of the same name and path replaces the value, and store names only values it did not hold', () => {
    const jar = new CookieJar();
    expect(jar.store(['sid=one; Path=/'], NOW)).toEqual(['one']);
    expect(jar.store(['sid=one; Path=/; Max-Age=60'], NOW)).toEqual([]);
    expect(jar.store(['sid=two; Path=/'], NOW)).toEqual(['two']);
    expect(jar.header('/api/x', NOW)).toBe('sid=two');
    expect(jar.get('sid', NOW)).toBe('two');
  });

  it('deletes a cookie whose Expires is in the past, or whose Max-Age is 0 or less', () => {
    const jar = new CookieJar();
    jar.store(['a=1; Path=/', 'b=2; Path=/', 'c=3; Path=/', 'keep=4; Path=/'], NOW);
    jar.store(
      [
        'a=gone; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
        'b=gone; Path=/; Max-Age=0',
        'c=x; Max-Age=-1',
      ],
      NOW,
    );
    expect(jar.header('/', NOW)).toBe('keep=4');
  });

  it('Max-Age wins over Expires, and a cookie that lapses during the run is sent no more', () => {
    const jar = new CookieJar();
    jar.store(['short=1; Path=/; Max-Age=60; Expires=Thu, 01 Jan 1970 00:00:00 GMT'], NOW);
    expect(jar.get('short', NOW)).toBe('1');
    expect(jar.header('/', NOW + 61_000)).toBeUndefined();
    expect(jar.size).toBe(0);
  });

  it('sends a cookie only under its path (not /apix for /api), longest path first', () => {
    const jar = new CookieJar();
    jar.store(['root=r; Path=/', 'scoped=s; Path=/api'], NOW);
    expect(jar.header('/api/items', NOW)).toBe('scoped=s; root=r');
    expect(jar.header('/api', NOW)).toBe('scoped=s; root=r');
    expect(jar.header('/apix', NOW)).toBe('root=r');
  });

  it('deleting a cookie at one path leaves the same name at another path', () => {
    const jar = new CookieJar();
    jar.store(['sid=root; Path=/', 'sid=api; Path=/api'], NOW);
    jar.store(['sid=; Path=/api; Max-Age=0'], NOW);
    expect(jar.header('/api/x', NOW)).toBe('sid=root');
  });
});
