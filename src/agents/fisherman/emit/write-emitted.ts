import { accessSync, constants, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { TallyError } from '../../../core/errors.js';
import type { Ledger } from '../../../core/ledger/ledger.js';
import { shownUrl } from '../../../core/shown-url.js';
import type { PrepareDataResult } from '../prepare-data.js';
import { createdTree } from '../recipes/created-tree.js';
import { emitJson, emitPlaywright } from './emit-setup.js';

const FORMATS = ['playwright', 'json'] as const;

const isFormat = (word: string | undefined): word is (typeof FORMATS)[number] =>
  FORMATS.includes(word as (typeof FORMATS)[number]);

/** What is wrong with `--emit`'s words, named as the user wrote them (`yaml` is a format Tally lacks, not a bad pair). */
function emitWordsProblem(values: string[]): string | undefined {
  const [format, file] = values;
  const formats = `the formats are ${FORMATS.join(' and ')}`;
  if (values.length > 2)
    return `--emit ${values.join(' ')}: --emit takes one FORMAT FILE pair, and was given ${values.length} words (is it repeated?). Keep one`;
  if (isFormat(format) && !file)
    return `--emit ${format} names no file. Write --emit ${format} ${format === 'json' ? 'items.json' : 'setup.ts'}`;
  if (isFormat(format)) return undefined;
  if (!file && format && /[./\\]/.test(format))
    return `--emit ${format} names no format: it goes before the file. Write --emit ${/\.json$/i.test(format) ? 'json' : 'playwright'} ${format}`;
  if (isFormat(file))
    return `--emit ${values.join(' ')}: the format comes first. Write --emit ${file} ${format}`;
  return `--emit ${values.join(' ')}: "${format}" is not a format Tally emits (${formats})${file ? '' : ', and no file follows it'}. Write --emit playwright setup.ts or --emit json items.json`;
}

/**
 * `--emit "json items.json"`, the pair quoted as one word as the help's `<format-and-file>` reads,
 * is the pair: split at the first white space after a first word that is no path (`yaml x.yaml`
 * then says yaml is no format). A file name with spaces after it stays whole
 * (`"playwright my setup.ts"` is the file `my setup.ts`); a lone path with spaces stays a path.
 */
function emitWords(values: string[]): string[] {
  const [only] = values;
  if (values.length !== 1 || only === undefined) return values;
  const pair = /^\s*(\S+)\s+(\S[\s\S]*?)\s*$/.exec(only);
  return pair && !/[./\\]/.test(pair[1] as string) ? [pair[1] as string, pair[2] as string] : values;
}

/** Checks `--emit FORMAT FILE` before anything runs, so a typo costs no API requests. */
export function parseEmit(given: string[]): { format: (typeof FORMATS)[number]; file: string } {
  const values = emitWords(given);
  const [format, file] = values;
  const problem = emitWordsProblem(values);
  if (problem || !isFormat(format) || !file)
    throw new TallyError('EMIT_INVALID', `${problem ?? `--emit ${values.join(' ')} is not "FORMAT FILE"`}.`, {
      values,
    });
  const target = resolve(file);
  emitDestinationProblem(target);
  return { format, file: target };
}

/**
 * The file must be one the run can write once it has made its items: its folder exists and is
 * writable, and it is no folder itself. Checked before the run, since data made and then
 * not emitted leaves the command failed over a typo in a path.
 */
function emitDestinationProblem(file: string): void {
  const refuse = (why: string) => {
    throw new TallyError('EMIT_INVALID', `--emit cannot write ${file}: ${why}`, { file });
  };
  const folder = dirname(file);
  let isFolder = false;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    // Missing, or not reachable: refused below.
  }
  if (!isFolder)
    refuse(`the folder ${folder} does not exist. Create it, or name a file in an existing folder.`);
  try {
    if (statSync(file).isDirectory()) refuse('it is a folder. Name a file, such as setup.ts.');
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
  }
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    refuse(`the folder ${folder} is not writable.`);
  }
}

/** Writes setup code (or the items as JSON) for what the run created; returns a line saying where. */
export function writeEmitted(values: string[], result: PrepareDataResult, ledger: Ledger): string {
  const { format, file } = parseEmit(values);
  const tree = createdTree(ledger.entries(result.runId));
  if (tree.length === 0)
    return `Nothing to emit: run ${result.runId} created nothing that still exists (${file} not written).`;
  // Security: an emitted file is source others read; shown like any output (a result built by hand included).
  const meta = { runId: result.runId, baseUrl: shownUrl(result.baseUrl), marker: result.marker };
  writeFileSync(file, format === 'json' ? emitJson(tree, meta) : emitPlaywright(tree, meta));
  return `Wrote ${format === 'json' ? `${tree.length} items with their links` : `a Playwright fixture recreating ${tree.length} items`} to ${file}`;
}
