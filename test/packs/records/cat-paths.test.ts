import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkCatPaths, dumpRecords } from '../../../src/packs/records/cat-records.js';
import { RecordsUsageError } from '../../../src/packs/records/records-error.js';
import { tempDir } from '../../helpers.js';

const ROOT = '/srv/corpus';
const GOOD = 'references/decisions/use-postgres.md';
const PLAN = 'plans/q4-search.md';
const ALLOWED = new Set([GOOD, PLAN]);

/** The refusal checkCatPaths throws, or a failure when it accepts. */
function refusal(args: string[], allowed: Set<string> = ALLOWED): RecordsUsageError {
  try {
    const accepted = checkCatPaths(ROOT, args, allowed);
    throw new Error(`accepted ${JSON.stringify(accepted)}`);
  } catch (error) {
    if (!(error instanceof RecordsUsageError)) throw error;
    return error;
  }
}

describe('--cat membership: what is accepted', () => {
  it('returns the paths as a query prints them, deduplicated, in the caller’s order', () => {
    expect(checkCatPaths(ROOT, [PLAN, GOOD, PLAN, GOOD], ALLOWED)).toEqual([PLAN, GOOD]);
  });

  it('re-expresses an absolute path inside the root relative to it, with forward slashes', () => {
    expect(checkCatPaths(ROOT, [`${ROOT}/${GOOD}`, PLAN], ALLOWED)).toEqual([GOOD, PLAN]);
    // The same record spelled two ways is one record.
    expect(checkCatPaths(ROOT, [GOOD, `${ROOT}/${GOOD}`], ALLOWED)).toEqual([GOOD]);
  });

  it('takes a relative path relative to the root, never to the working directory', () => {
    // The root is an ancestor of the working directory, so a cwd-based reading would differ.
    const root = dirname(process.cwd());
    expect(checkCatPaths(root, [PLAN], ALLOWED)).toEqual([PLAN]);
  });

  it('strips every leading ./', () => {
    expect(checkCatPaths(ROOT, [`./${GOOD}`], ALLOWED)).toEqual([GOOD]);
    expect(checkCatPaths(ROOT, [`././././${GOOD}`], ALLOWED)).toEqual([GOOD]);
  });

  it('splits each argument on \\n, \\r\\n and a lone \\r', () => {
    expect(checkCatPaths(ROOT, [`${GOOD}\n${PLAN}`], ALLOWED)).toEqual([GOOD, PLAN]);
    expect(checkCatPaths(ROOT, [`${GOOD}\r\n${PLAN}`], ALLOWED)).toEqual([GOOD, PLAN]);
    expect(checkCatPaths(ROOT, [`${GOOD}\r${PLAN}`], ALLOWED)).toEqual([GOOD, PLAN]);
  });
});

describe('--cat membership: what is refused, and why', () => {
  it('names every refused part with its reason, and nothing is accepted alongside', () => {
    const error = refusal([GOOD, 'plans/nope.md', '-x', '']);
    expect(error.code).toBe('CAT_REFUSED');
    expect(error.message).toBe(
      '--cat refused: "plans/nope.md" (not a record a query can return), "-x" (starts with a dash), "" (empty argument). Nothing was printed. Pass paths exactly as a query prints them (e.g. references/decisions/use-postgres.md).',
    );
    expect(error.details).toEqual({
      refused: [
        '"plans/nope.md" (not a record a query can return)',
        '"-x" (starts with a dash)',
        '"" (empty argument)',
      ],
    });
  });

  it('refuses an empty list', () => {
    const error = refusal([]);
    expect(error.message).toBe(
      '--cat refused: no paths given. Nothing was printed. Pass paths exactly as a query prints them (e.g. references/decisions/use-postgres.md).',
    );
    expect(error.details).toEqual({ refused: [] });
  });

  it('refuses a whitespace-only argument as empty', () => {
    expect(refusal(['   ']).details.refused).toEqual(['"   " (empty argument)']);
    expect(refusal(['\t']).details.refused).toEqual(['"\t" (empty argument)']);
  });

  it('refuses a \\r\\n as one separator, not two (no empty part in between)', () => {
    // A lone trailing separator leaves one empty part: refused, reported once.
    expect(refusal([`${GOOD}\r\n`]).details.refused).toEqual(['"" (empty argument)']);
  });

  it('refuses a NUL byte and shows it escaped', () => {
    const allowed = new Set([...ALLOWED, `${GOOD}\0`]);
    expect(refusal([`${GOOD}\0`], allowed).details.refused).toEqual([`"${GOOD}\\0" (NUL byte)`]);
    expect(refusal(['a\0b\0c'], allowed).details.refused).toEqual(['"a\\0b\\0c" (NUL byte)']);
  });

  it('refuses a dash-leading name even when it is a record', () => {
    const allowed = new Set([...ALLOWED, '-plans.md']);
    expect(refusal(['-plans.md'], allowed).details.refused).toEqual(['"-plans.md" (starts with a dash)']);
  });

  it('refuses every glob character even when the name is a record', () => {
    for (const char of ['*', '?', '[', ']', '{', '}']) {
      const name = `plans/a${char}.md`;
      expect(refusal([name], new Set([name])).details.refused, char).toEqual([`"${name}" (glob characters)`]);
    }
  });

  it('refuses an absolute path outside the root, checked as given (never re-expressed as ../)', () => {
    // Even an allowed set that (wrongly) held a ../ path must not let an outside file through.
    const allowed = new Set([...ALLOWED, '../corpus-evil/x.md', '../../etc/passwd']);
    expect(refusal(['/srv/corpus-evil/x.md'], allowed).details.refused).toEqual([
      '"/srv/corpus-evil/x.md" (not a record a query can return)',
    ]);
    expect(refusal(['/etc/passwd'], allowed).details.refused).toEqual([
      '"/etc/passwd" (not a record a query can return)',
    ]);
  });

  it('refuses a relative path that only strips to a record after something other than ./', () => {
    expect(refusal([`../${GOOD}`]).details.refused).toEqual([
      `"../${GOOD}" (not a record a query can return)`,
    ]);
    expect(refusal([`.${GOOD}`]).details.refused).toEqual([`".${GOOD}" (not a record a query can return)`]);
  });
});

describe('dumpRecords', () => {
  function store() {
    const root = tempDir('tally-cat-');
    mkdirSync(join(root, 'plans'));
    writeFileSync(join(root, 'plans', 'a.md'), 'alpha\n');
    writeFileSync(join(root, 'plans', 'b.md'), 'beta without newline');
    writeFileSync(join(root, 'plans', 'c.md'), '');
    return root;
  }

  it('prints each record under a header, adds a missing final newline, and separates with a blank line', () => {
    const root = store();
    expect(dumpRecords(root, ['plans/a.md', 'plans/b.md', 'plans/c.md'])).toBe(
      '==> plans/a.md <==\nalpha\n\n==> plans/b.md <==\nbeta without newline\n\n==> plans/c.md <==\n\n',
    );
  });

  it('refuses a record that is now a symbolic link, naming it, and prints nothing', () => {
    const root = store();
    const outside = join(tempDir(), 'secret.md');
    writeFileSync(outside, 'TOP SECRET\n');
    symlinkSync(outside, join(root, 'plans', 'link.md'));
    expect(() => dumpRecords(root, ['plans/a.md', 'plans/link.md'])).toThrow(RecordsUsageError);
    expect(() => dumpRecords(root, ['plans/a.md', 'plans/link.md'])).toThrow(
      '--cat refused: plans/link.md is now a symbolic link. Nothing was printed.',
    );
    let caught: unknown;
    try {
      dumpRecords(root, ['plans/link.md']);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 'CAT_REFUSED' });
  });

  it('refuses a record that is now a directory', () => {
    const root = store();
    mkdirSync(join(root, 'plans', 'd.md'));
    expect(() => dumpRecords(root, ['plans/a.md', 'plans/d.md'])).toThrow(
      '--cat refused: plans/d.md is now a directory. Nothing was printed.',
    );
  });
});
