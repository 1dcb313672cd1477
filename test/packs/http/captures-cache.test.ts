// A HAR is parsed once per process while it stays the same file; any change is seen.
import { utimesSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCaptures } from '../../../src/packs/http/captures/load-captures.js';
import { tempDir } from '../../helpers.js';
import { harEntry, writeHar } from './har-fixtures.js';

const post = (title: string) =>
  harEntry('POST', 'http://127.0.0.1:4000/api/items', 201, { body: { title }, response: { id: 1, title } });

describe('loadCaptures and a HAR that changes', () => {
  it('sees a rewrite of the same path, even one of the same size and mtime', () => {
    const dir = tempDir();
    const path = writeHar(dir, 'a.har', [post('first')]);
    expect(loadCaptures([path]).captures[0]?.requestBody).toEqual({ title: 'first' });
    // Same again: the same answer (from the parse kept in memory).
    expect(loadCaptures([path]).captures[0]?.requestBody).toEqual({ title: 'first' });
    const before = new Date('2026-01-01T00:00:00Z');
    utimesSync(path, before, before);
    writeHar(dir, 'a.har', [post('other')]);
    utimesSync(path, before, before);
    expect(loadCaptures([path]).captures[0]?.requestBody).toEqual({ title: 'other' });
  });

  it('what one caller does with its captures never shows in the next load', () => {
    const path = writeHar(tempDir(), 'b.har', [post('kept')]);
    const first = loadCaptures([path]);
    first.captures.length = 0;
    expect(loadCaptures([path]).captures).toHaveLength(1);
  });
});
