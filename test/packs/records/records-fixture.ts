import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { runTally, tempDir } from '../../helpers.js';

export const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'records');

/** A private copy of the committed corpus (queries write an index next to it). */
export function corpus(): string {
  const root = join(tempDir('tally-records-'), 'corpus');
  cpSync(FIXTURE, root, { recursive: true, filter: (source) => !source.includes('/.tally') });
  return root;
}

export const tally = runTally;
