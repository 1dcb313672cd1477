import { basename } from 'node:path';
import { isTallyError } from '../../core/errors.js';
import { PathOutsideProjectError } from '../../packs/workspace/path-outside-project-error.js';
import type { ProjectRoot } from '../../packs/workspace/project-root.js';
import type { PathHistory } from './changes-report.js';
import type { ChangeFlag, FileChange } from './chat-record.js';
import type { MentionedChange, SaidChange } from './mentioned-changes.js';

/** Changes made by the chat's earlier turns, for recaps (`turn 1 created src/a.ts`). */
export interface EarlierTurn {
  turn: number;
  changes: FileChange[];
  /** The paths that turn's `fs_read` calls read (as spelled in the calls): a read claim later in the chat may rest on them. */
  read?: readonly string[];
  /** The paths that turn's `fs_grep` calls searched (as spelled in the calls): a search claim later in the chat may rest on them. */
  searched?: readonly string[];
}

/** What a turn's statements are judged against: its changes report and each path's history. */
export interface TurnFacts {
  changes: FileChange[];
  histories: ReadonlyMap<string, PathHistory>;
  root: ProjectRoot;
  earlier: readonly EarlierTurn[];
  /** The paths this turn's `fs_grep` calls searched, as spelled in the calls (they leave no file effect). */
  searched?: readonly string[];
}

/** The rows of a report about one path (as the destination, or as the source of a move). */
export function rowsAbout(changes: readonly FileChange[], canonical: string): FileChange[] {
  return changes.filter((row) => row.path === canonical || row.from === canonical);
}

/**
 * Which rows make a statement true. Prose is read leniently (`updated` fits a created file),
 * but never across kinds of change: an edit claim needs content that changed, so a pure move
 * (`moved` without `replaced`) is no edit of its destination. `strict` (an entry of the
 * reply's `Changes:` list) needs the very kind; a move's two ends may be listed as
 * `deleted` source and `created` destination.
 */
export function fits(
  said: SaidChange,
  row: FileChange,
  canonical: string,
  changes: readonly FileChange[],
  strict = false,
): boolean {
  const here = row.path === canonical;
  const movedHere = here && row.change === 'moved';
  switch (said) {
    case 'created':
      return here && (row.change === 'created' || (movedHere && !row.replaced));
    case 'written':
      return here && (row.change === 'created' || row.change === 'updated' || (movedHere && !!row.replaced));
    case 'updated':
      return (
        here &&
        (row.change === 'updated' || (!strict && row.change === 'created') || (movedHere && !!row.replaced))
      );
    case 'deleted':
      return (here && row.change === 'deleted') || (row.change === 'moved' && row.from === canonical);
    case 'moved':
      return (
        row.change === 'moved' ||
        // Moved, then edited: by content a delete and a create, each end a fair "moved".
        (here && row.change === 'deleted' && changes.some((other) => other.change === 'created')) ||
        (here && row.change === 'created' && changes.some((other) => other.change === 'deleted'))
      );
    case 'changed':
      return true;
    case 'restored':
      // Reverted or restored: any change of the path this turn (an undone edit is checked by its history).
      return here || row.from === canonical;
  }
}

/** The truth about one path this turn, in words (the end of a flag's sentence). */
export function describe(canonical: string, facts: TurnFacts, earlier?: string): string {
  const row = rowsAbout(facts.changes, canonical)[0];
  if (row?.change === 'moved') {
    if (row.path !== canonical) return `moved to ${row.path}`;
    return `moved here from ${row.from}${row.replaced ? ', replacing the file that was here' : ', content unchanged'}`;
  }
  if (row) return row.change;
  const history = facts.histories.get(canonical);
  const before = earlier ? `; ${earlier}` : '';
  if (history?.written) {
    return history.first.exists
      ? `unchanged this turn (changed, then restored to its content before the turn${before})`
      : `unchanged this turn (created and removed again${before})`;
  }
  if (history?.read) return `unchanged this turn (only read${before})`;
  return `not touched this turn${earlier ? ` (${earlier})` : ''}`;
}

/** The latest earlier turn that changed a path: whether it fits the statement, and what it did. */
export function earlierChange(
  earlier: readonly EarlierTurn[],
  canonical: string,
  said: SaidChange,
): { fits: boolean; told?: string } {
  for (const turn of [...earlier].reverse()) {
    const rows = rowsAbout(turn.changes, canonical);
    if (rows.length === 0) continue;
    return {
      fits: rows.some((row) => fits(said, row, canonical, turn.changes)),
      told: `${(rows[0] as FileChange).change} in turn ${turn.turn}`,
    };
  }
  return { fits: false };
}

/**
 * The canonical path of a spelling (the tools' own resolver: `./src/a.ts`, an absolute path
 * inside the root and a path through a symlinked directory are one file), or the reason it
 * names no file of the project. A path the turn touched in another Unicode normalization form
 * is that path. A bare file name (`a.ts`) that names no changed file at the root stands for
 * the one changed file with that name, if exactly one.
 */
export async function canonicalOf(
  spelling: string,
  facts: TurnFacts,
): Promise<{ canonical: string } | { outside: string }> {
  let canonical: string;
  try {
    canonical = (await facts.root.resolve(spelling)).relative;
  } catch (error) {
    if (!isTallyError(error)) throw error;
    return {
      outside: `not a file in the project (${error instanceof PathOutsideProjectError ? error.reason : error.code})`,
    };
  }
  // A name in another Unicode form (`café` typed NFC, written NFD) is the same file to a reader:
  // matched under NFC, never renamed.
  if (!facts.histories.has(canonical)) {
    const nfc = canonical.normalize('NFC');
    const same = [...facts.histories.keys()].find((path) => path.normalize('NFC') === nfc);
    if (same !== undefined) canonical = same;
  }
  if (!spelling.includes('/') && rowsAbout(facts.changes, canonical).length === 0) {
    const sameName = facts.changes.filter((row) => basename(row.path) === spelling);
    if (sameName.length === 1) canonical = (sameName[0] as FileChange).path;
  }
  return { canonical };
}

/**
 * Compares the model's statements (see `mentionedChanges` for the rule) with the turn's
 * changes report: each file is canonicalized, and a statement with no fitting row is flagged
 * with the truth from the ledger. A recap (`in turn 1 I created src/a.ts`) is excused only
 * by a change an earlier turn of the chat really made to that path; a repeated claim (`as
 * before`, `again`) is never a recap.
 */
export async function flagFalseStatements(
  mentions: readonly MentionedChange[],
  facts: TurnFacts,
  source: ChangeFlag['source'] = 'prose',
): Promise<ChangeFlag[]> {
  const flags: ChangeFlag[] = [];
  const seen = new Set<string>();
  for (const mention of mentions) {
    const resolved = await canonicalOf(mention.spelling, facts);
    if ('outside' in resolved) {
      const key = `${mention.spelling}\n${mention.said}`;
      if (!seen.has(key)) {
        seen.add(key);
        flags.push({
          path: mention.spelling,
          spelling: mention.spelling,
          said: mention.said,
          truth: resolved.outside,
          source,
        });
      }
      continue;
    }
    const { canonical } = resolved;
    const rows = rowsAbout(facts.changes, canonical);
    if (rows.some((row) => fits(mention.said, row, canonical, facts.changes))) continue;
    // A revert undone within the turn leaves no row: the writes on the path are its evidence.
    if (mention.said === 'restored' && facts.histories.get(canonical)?.written) continue;
    const before = earlierChange(facts.earlier, canonical, mention.said);
    if (mention.recap && before.fits) continue;
    const key = `${canonical}\n${mention.said}`;
    if (seen.has(key)) continue;
    seen.add(key);
    flags.push({
      path: canonical,
      spelling: mention.spelling,
      said: mention.said,
      truth: describe(canonical, facts, before.told),
      source,
    });
  }
  return flags;
}
