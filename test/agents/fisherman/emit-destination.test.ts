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
