import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { TallyError } from '../../../core/errors.js';
import type { Ledger } from '../../../core/ledger/ledger.js';
import type { PrepareDataResult } from '../prepare-data.js';
import { createdTree } from '../recipes/created-tree.js';
import { emitJson, emitPlaywright } from './emit-setup.js';

const FORMATS = ['playwright', 'json'] as const;

/** Checks `--emit FORMAT FILE` before anything runs, so a typo costs no API requests. */
export function parseEmit(values: string[]): { format: (typeof FORMATS)[number]; file: string } {
  const [format, file] = values;
  if (values.length !== 2 || !file || !FORMATS.includes(format as (typeof FORMATS)[number]))
    throw new TallyError(
      'EMIT_INVALID',
      `--emit ${values.join(' ')} is not "FORMAT FILE". Write --emit playwright setup.ts or --emit json items.json (at the end of the command).`,
      { values },
    );
  return { format: format as (typeof FORMATS)[number], file: resolve(file) };
}

/** Writes setup code (or the items as JSON) for what the run created; returns a line saying where. */
export function writeEmitted(values: string[], result: PrepareDataResult, ledger: Ledger): string {
  const { format, file } = parseEmit(values);
  const tree = createdTree(ledger.entries(result.runId));
  if (tree.length === 0)
    return `Nothing to emit: run ${result.runId} created nothing that still exists (${file} not written).`;
  const meta = { runId: result.runId, baseUrl: result.baseUrl, marker: result.marker };
  writeFileSync(file, format === 'json' ? emitJson(tree, meta) : emitPlaywright(tree, meta));
  return `Wrote ${format === 'json' ? `${tree.length} items with their links` : `a Playwright fixture recreating ${tree.length} items`} to ${file}`;
}
