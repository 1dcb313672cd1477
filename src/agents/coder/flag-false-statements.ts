import { basename } from 'node:path';
import type { NetEffects } from '../../core/effects.js';
import { TallyError } from '../../core/errors.js';
import { PathOutsideProjectError } from '../../packs/workspace/path-outside-project-error.js';
import type { ProjectRoot } from '../../packs/workspace/project-root.js';
import type { ChangeFlag, FileChange } from './chat-record.js';
import { mentionedChanges, type SaidChange } from './mentioned-changes.js';

/** Which rows of the changes report make a statement true. */
function fits(said: SaidChange, row: FileChange, canonical: string): boolean {
  switch (said) {
    case 'created':
      return row.change === 'created' || (row.change === 'moved' && row.path === canonical);
    case 'written':
    case 'updated':
      return row.change !== 'deleted' && row.path === canonical;
    case 'deleted':
      return row.change === 'deleted' || (row.change === 'moved' && row.from === canonical);
    case 'moved':
      return row.change === 'moved';
  }
}

/** Changes made by the chat's earlier turns, for recaps (`turn 1 created src/a.ts`). */
export interface EarlierTurn {
  turn: number;
  changes: FileChange[];
}

function describe(
  row: FileChange | undefined,
  canonical: string,
  nets: NetEffects,
  earlier?: string,
): string {
  if (row?.change === 'moved')
    return row.path === canonical ? `moved here from ${row.from}` : `moved to ${row.path}`;
  if (row) return row.change;
  const net = nets.get(`file:${canonical}`);
  const before = earlier ? `; ${earlier}` : '';
  if (net?.read) return `unchanged this turn (only read${before})`;
  if (net) return `unchanged this turn (created and removed again${before})`;
  return `not touched this turn${earlier ? ` (${earlier})` : ''}`;
}

function earlierChange(
  earlier: readonly EarlierTurn[],
  canonical: string,
  said: SaidChange,
): {
  fits: boolean;
  told?: string;
} {
  for (const turn of [...earlier].reverse()) {
    const rows = turn.changes.filter((row) => row.path === canonical || row.from === canonical);
    if (rows.length === 0) continue;
    return {
      fits: rows.some((row) => fits(said, row, canonical)),
      told: `${(rows[0] as FileChange).change} in turn ${turn.turn}`,
    };
  }
  return { fits: false };
}

/**
 * Compares the model's final reply with the turn's changes report: every file the reply
 * says it changed (see `mentionedChanges` for the rule) is canonicalized with the same
 * resolver the tools use, so `./src/a.ts`, `/abs/project/src/a.ts` and a path through a
 * symlinked directory are one file. A statement with no matching row is flagged with the
 * truth from the ledger. A bare file name (`a.ts`) that names no file at the root matches
 * the one changed file with that name, if exactly one. A recap sentence (`in turn 1 I
 * created src/a.ts`) may also be backed by an earlier turn of the same chat.
 */
export async function flagFalseStatements(
  text: string,
  changes: FileChange[],
  nets: NetEffects,
  root: ProjectRoot,
  earlier: readonly EarlierTurn[] = [],
): Promise<ChangeFlag[]> {
  const flags: ChangeFlag[] = [];
  const seen = new Set<string>();
  for (const mention of mentionedChanges(text)) {
    let canonical: string;
    try {
      canonical = (await root.resolve(mention.spelling)).relative;
    } catch (error) {
      if (!(error instanceof TallyError)) throw error;
      const key = `${mention.spelling}\n${mention.said}`;
      if (!seen.has(key)) {
        seen.add(key);
        flags.push({
          path: mention.spelling,
          spelling: mention.spelling,
          said: mention.said,
          truth: `not a file in the project (${error instanceof PathOutsideProjectError ? error.reason : error.code})`,
        });
      }
      continue;
    }
    if (
      !mention.spelling.includes('/') &&
      !changes.some((row) => row.path === canonical || row.from === canonical)
    ) {
      const sameName = changes.filter((row) => basename(row.path) === mention.spelling);
      if (sameName.length === 1) canonical = (sameName[0] as FileChange).path;
    }
    const rows = changes.filter((row) => row.path === canonical || row.from === canonical);
    if (rows.some((row) => fits(mention.said, row, canonical))) continue;
    const before = earlierChange(earlier, canonical, mention.said);
    if (mention.recap && before.fits) continue;
    const key = `${canonical}\n${mention.said}`;
    if (seen.has(key)) continue;
    seen.add(key);
    flags.push({
      path: canonical,
      spelling: mention.spelling,
      said: mention.said,
      truth: describe(rows[0], canonical, nets, before.told),
    });
  }
  return flags;
}
