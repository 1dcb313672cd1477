import { changeBlocks } from './change-blocks.js';
import type { ChangeFlag } from './chat-record.js';
import {
  canonicalOf,
  describe,
  earlierChange,
  fits,
  rowsAbout,
  type TurnFacts,
} from './flag-false-statements.js';
import { fileLike, fileSpellings, listedClaims, type SaidChange } from './mentioned-changes.js';

/** One entry of the reply's `Changes:` list. */
export interface ListedChange {
  said: SaidChange;
  /** The file as the list spells it (the destination of a move). */
  spelling: string;
  /** A move's source, as spelled. */
  from?: string;
  /** Written in the asked-for form (`- updated src/a.ts`, `- moved a -> b`); else read as prose. */
  strict: boolean;
  recap: boolean;
  line: string;
}

/** The reply's change list(s), and the reply without them (for the prose net). */
export interface ChangeList {
  entries: ListedChange[];
  /** A heading or bullet said nothing changed (`Changes: none`). */
  none: boolean;
  rest: string;
}

const STRICT_VERB = /^(created|updated|deleted|moved|renamed)\b\s*:?\s*/i;
/** Files without an extension that a list may name bare (with a directory, any path is `fileLike`). */
const WELL_KNOWN_FILE =
  /^(?:Makefile|Dockerfile|Containerfile|Procfile|Gemfile|Rakefile|Jenkinsfile|Vagrantfile|Brewfile|LICENSE|NOTICE|AUTHORS|CODEOWNERS)$/;
const ARROW = /^\s*(?:->|→|=>|\bto\b)\s*/i;

/** A path at the start of `text`: in backticks or quotes (spaces allowed), else up to a space. */
function takePath(text: string): { path: string; rest: string } | undefined {
  const quoted = /^(`|"|')([^`"']+)\1/.exec(text);
  if (quoted) return { path: (quoted[2] as string).trim(), rest: text.slice(quoted[0].length) };
  const bare = /^\S+/.exec(text);
  if (!bare) return undefined;
  // Emphasis around a path (`*a.ts*`, `**a.ts**,`) is no part of it; a name's own leading
  // underscores (`__init__.py`, `_config.yml`) are.
  const token = bare[0];
  const emphasised = /[*_][,;:.]*$/.test(token);
  const path = (emphasised ? token.replace(/^[*_]+/, '') : token).replace(/[*_,;:.]+$/, '');
  return path ? { path, rest: text.slice(bare[0].length) } : undefined;
}

/**
 * A bullet in the asked-for form: `created PATH`, `updated PATH`, `deleted PATH`,
 * `moved FROM -> TO` (also `renamed`, `to`, `→`), paths bare or in backticks; a remark after
 * the path is allowed (`- updated src/a.ts (exports 10)`) unless it names another file.
 */
export function strictEntry(bullet: string): Omit<ListedChange, 'recap' | 'line'> | undefined {
  const body = bullet.replace(/^(\*\*|__)(.+?)\1/, '$2').trim();
  const verb = STRICT_VERB.exec(body);
  if (!verb) return undefined;
  const word = (verb[1] as string).toLowerCase();
  const first = takePath(body.slice(verb[0].length));
  if (!first) return undefined;
  let rest = first.rest;
  let from: string | undefined;
  let spelling = first.path;
  if (word === 'moved' || word === 'renamed') {
    const arrow = ARROW.exec(rest);
    const second = arrow ? takePath(rest.slice(arrow[0].length)) : undefined;
    if (!second) return undefined;
    from = first.path;
    spelling = second.path;
    rest = second.rest;
  }
  if (fileSpellings(rest).length > 0) return undefined;
  // Code, not files: `- renamed foo to bar` is a prose bullet.
  if (![spelling, from ?? spelling].every((path) => fileLike(path) || WELL_KNOWN_FILE.test(path)))
    return undefined;
  return {
    said: word === 'renamed' ? 'moved' : (word as SaidChange),
    spelling,
    ...(from ? { from } : {}),
    strict: true,
  };
}

/**
 * The reply's change lists (see `changeBlocks`: a `Changes:` heading and its bullets): each
 * bullet in the asked-for form is one strict entry; any other bullet is read as prose
 * (`listedClaims`: a file named without a verb is `changed`). Undefined when the reply has
 * no list — then only the prose net applies.
 */
export function parseChangeList(text: string): ChangeList | undefined {
  const lines = text.split('\n');
  const blocks = changeBlocks(text);
  if (blocks.length === 0) return undefined;
  const entries: ListedChange[] = [];
  const listed = new Set<number>();
  for (const block of blocks) {
    for (let index = block.first; index <= block.last; index++) listed.add(index);
    // A `none` bullet names no file, so it adds no entry (`changeBlocks` marks the block `none`).
    for (const bullet of block.bullets) {
      const strict = strictEntry(bullet);
      // The recap rule is the prose rule (`listedClaims`), applied to the whole bullet.
      const recap = listedClaims(bullet).some((claim) => claim.recap);
      if (strict) entries.push({ ...strict, recap, line: bullet });
      else
        for (const claim of listedClaims(bullet))
          entries.push({
            said: claim.said,
            spelling: claim.spelling,
            strict: false,
            recap: claim.recap,
            line: bullet,
          });
    }
  }
  if (entries.length === 0 && !blocks.some((block) => block.none)) return undefined;
  return {
    entries,
    none: blocks.some((block) => block.none),
    rest: lines.map((line, index) => (listed.has(index) ? '' : line)).join('\n'),
  };
}

const LEFT_OUT = 'left out of the Changes list';

/**
 * Checks the reply's change list against the changes report, both ways: every entry must be
 * a real change (its path, and its kind — strictly for entries in the asked-for form), and
 * every real change must be listed (a move by its destination, and its source unless the
 * entry is a move). A recap entry is excused only by an earlier turn's real change to that
 * path, and lists nothing of this turn.
 */
export async function verifyChangeList(list: ChangeList, facts: TurnFacts): Promise<ChangeFlag[]> {
  const flags: ChangeFlag[] = [];
  const seen = new Set<string>();
  const covered = new Map<string, { moved: boolean }>();
  const flag = (item: Omit<ChangeFlag, 'source'>) => {
    const key = `${item.path}\n${item.said}`;
    if (seen.has(key)) return;
    seen.add(key);
    flags.push({ ...item, source: 'changes-list' });
  };
  for (const entry of list.entries) {
    const to = await canonicalOf(entry.spelling, facts);
    const from = entry.from === undefined ? undefined : await canonicalOf(entry.from, facts);
    const spelling = entry.from === undefined ? entry.spelling : `${entry.from} -> ${entry.spelling}`;
    if ('outside' in to || (from && 'outside' in from)) {
      const outside = 'outside' in to ? to.outside : (from as { outside: string }).outside;
      flag({ path: spelling, spelling, said: entry.said, truth: outside });
      continue;
    }
    const path = to.canonical;
    const source = from && 'canonical' in from ? from.canonical : undefined;
    let ok: boolean;
    if (source !== undefined) {
      // A move: the report's one `moved` row, or (moved, then edited) the source deleted and the destination new.
      ok =
        facts.changes.some((row) => row.change === 'moved' && row.path === path && row.from === source) ||
        (facts.changes.some((row) => row.change === 'deleted' && row.path === source) &&
          facts.changes.some(
            (row) => row.path === path && (row.change === 'created' || row.change === 'updated'),
          ));
    } else {
      ok = rowsAbout(facts.changes, path).some((row) =>
        fits(entry.said, row, path, facts.changes, entry.strict),
      );
    }
    // A listed revert undone within the turn: the writes on the path are its evidence.
    if (!ok && entry.said === 'restored' && facts.histories.get(path)?.written) continue;
    if (ok) {
      covered.set(path, { moved: source !== undefined || covered.get(path)?.moved === true });
      if (source !== undefined) covered.set(source, { moved: true });
      continue;
    }
    if (entry.recap) {
      const before = earlierChange(facts.earlier, path, entry.said);
      if (before.fits && (source === undefined || earlierChange(facts.earlier, source, 'moved').fits))
        continue;
    }
    // Listed with the wrong kind: still listed (the mismatch is this flag, which tells the
    // truth about both ends of a move, not a second one).
    covered.set(path, { moved: true });
    if (source !== undefined) covered.set(source, { moved: true });
    const truth =
      source !== undefined
        ? `${source}: ${describe(source, facts)}; ${path}: ${describe(path, facts)}`
        : describe(path, facts, earlierChange(facts.earlier, path, entry.said).told);
    flag({ path, spelling, said: entry.said, truth });
  }
  // A listed directory (moved or deleted as a whole) lists the files inside it.
  const coverOf = (path: string) =>
    covered.get(path) ?? [...covered].find(([listed]) => path.startsWith(`${listed}/`))?.[1];
  for (const row of facts.changes) {
    const destination = coverOf(row.path);
    if (!destination) {
      flag({ path: row.path, spelling: row.path, said: LEFT_OUT, truth: describe(row.path, facts) });
      continue;
    }
    if (row.change === 'moved' && row.from && !destination.moved && !coverOf(row.from))
      flag({ path: row.from, spelling: row.from, said: LEFT_OUT, truth: describe(row.from, facts) });
  }
  return flags;
}
