import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEmit } from '../../../src/agents/fisherman/emit/write-emitted.js';
import { runTally, tempDir } from '../../helpers.js';
import { BUNDLED_HAR } from '../../packs/http/har-fixtures.js';

describe('--emit FILE is checked before the run makes anything', () => {
  it('a missing folder or a folder in place of the file is refused with what to do', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'existing'));
    expect(() => parseEmit(['playwright', join(dir, 'no-such', 'setup.ts')])).toThrow(
      /folder .*no-such does not exist/,
    );
    expect(() => parseEmit(['json', join(dir, 'existing')])).toThrow(/it is a folder/);
    expect(parseEmit(['json', join(dir, 'items.json')])).toEqual({
      format: 'json',
      file: join(dir, 'items.json'),
    });
  });

  it('the pair quoted as one word ("json items.json", as the help writes <format-and-file>) is the pair', () => {
    const dir = tempDir();
    expect(parseEmit([`json ${join(dir, 'items.json')}`])).toEqual({
      format: 'json',
      file: join(dir, 'items.json'),
    });
    // A file name with a space stays whole; a non-format first word is still refused by name.
    expect(parseEmit([`playwright ${join(dir, 'my setup.ts')}`])).toEqual({
      format: 'playwright',
      file: join(dir, 'my setup.ts'),
    });
    expect(() => parseEmit([`yaml ${join(dir, 'x.yaml')}`])).toThrow(/"yaml" is not a format Tally emits/);
  });

  it('tally fish with such an --emit exits 2 and sends nothing (no app is even running)', async () => {
    const run = await runTally([
      'fish',
      '1 suite',
      '--captures',
      BUNDLED_HAR,
      '--base-url',
      'http://127.0.0.1:9',
      '--scope',
      '/projects/alpha-shop',
      '--emit',
      'playwright',
      join(tempDir(), 'nodir', 'setup.ts'),
    ]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/--emit cannot write .*does not exist/);
  });
});

describe('a bad --emit names what is wrong with it, not just "not FORMAT FILE"', () => {
  const fishEmit = (...emit: string[]) =>
    runTally([
      'fish',
      '1 suite',
      '--captures',
      BUNDLED_HAR,
      '--base-url',
      'http://127.0.0.1:9',
      '--scope',
      '/projects/alpha-shop',
      '--emit',
      ...emit,
    ]);

  it('a format Tally does not emit (yaml), with or without a file: the format named, the formats listed, exit 2', async () => {
    const alone = await fishEmit('yaml');
    expect(alone.code, alone.stderr).toBe(2);
    expect(alone.stderr).toContain(
      'tally: --emit yaml: "yaml" is not a format Tally emits (the formats are playwright and json), and no file follows it. Write --emit playwright setup.ts or --emit json items.json.',
    );
    const withFile = await fishEmit('yaml', join(tempDir(), 'out.yaml'));
    expect(withFile.code, withFile.stderr).toBe(2);
    expect(withFile.stderr).toMatch(
      /"yaml" is not a format Tally emits \(the formats are playwright and json\)\. Write/,
    );
    expect(withFile.stderr).not.toMatch(/FORMAT FILE/);
  });

  it('a file with no format, a format with no file, the two swapped: each says which', () => {
    expect(() => parseEmit(['setup.ts'])).toThrow(
      '--emit setup.ts names no format: it goes before the file. Write --emit playwright setup.ts.',
    );
    expect(() => parseEmit(['json'])).toThrow('--emit json names no file. Write --emit json items.json.');
    expect(() => parseEmit(['setup.ts', 'playwright'])).toThrow(
      '--emit setup.ts playwright: the format comes first. Write --emit playwright setup.ts.',
    );
    expect(() => parseEmit(['json', 'a.json', 'json', 'b.json'])).toThrow(
      /takes one FORMAT FILE pair, and was given 4 words/,
    );
  });
});
