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

  it('holds no cookie over 4,096 bytes and no more than 180, as a browser: a hostile server cannot grow it', () => {
    const jar = new CookieJar();
    expect(jar.store([`big=${'x'.repeat(5000)}; Path=/`], NOW)).toEqual([]);
    expect(jar.get('big', NOW)).toBeUndefined();
    jar.store(['sid=first; Path=/'], NOW);
    jar.store(
      Array.from({ length: 1000 }, (_, n) => `flood${n}=v${n}; Path=/`),
      NOW,
    );
    expect(jar.size).toBe(180);
    // The oldest went first: the session cookie set before the flood is gone, the last ones stay.
    expect(jar.get('sid', NOW)).toBeUndefined();
    expect(jar.get('flood999', NOW)).toBe('v999');
    expect(jar.get('flood819', NOW)).toBeUndefined();
    expect(jar.get('flood820', NOW)).toBe('v820');
  });
});
