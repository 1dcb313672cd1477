import { numberWordValue } from '../number-words.js';
import { sameType } from '../type-words.js';

/**
 * The words of a request that a stated contract must account for: numbers (digits and number
 * words), quoted strings, paths, the names after "project"/"scope"…, and the agent's type
 * words. "a"/"an" are not demanded: "a suite" states no number a contract could drop.
 */
export interface RequestWord {
  /** `count`: a number right before a type word ("three suites"): that type's count, not another's. */
  kind: 'number' | 'quoted' | 'path' | 'name' | 'type' | 'count';
  /** As written in the request. */
  text: string;
  /** Compared form: digits for numbers, `<digits> <type>` for counts, lower case otherwise. */
  norm: string;
}

// Straight and typographic quotes; a single quote opens only after a space or the start, so
// "don't" is no quote. Non-ASCII as \u escapes: the CLI bundle stays ASCII (scripts/ascii-bundle.mjs).
const QUOTED =
  /"([^"\n]{1,200})"|\u201c([^\u201d\n]{1,200})\u201d|(?:^|(?<=[\s(:]))'([^'\n]{1,200})'(?=$|[\s,.;:)!?])|`([^`\n]{1,200})`/g;
const NAME_AFTER =
  /\b(?:project|scope|workspace|org|organization|organisation|team|repo|repository|board)\s+(?:named\s+|called\s+)?#?([A-Za-z0-9][A-Za-z0-9._~-]*)/gi;
const EDGE_PUNCTUATION = /^[([{<,;:!?]+|[)\]}>,;:!?]+$/g;
const FILE_NAME = /^\.?[A-Za-z0-9_-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,9}$/;
const DOTFILE = /^\.[A-Za-z][\w.-]*$/;
const NOT_PATHS = new Set(['e.g', 'i.e', 'etc', 'vs', 'a.m', 'p.m']);

/** A word that names a file or folder: has a slash, a file extension, or is a dotfile. */
export function isPathWord(token: string): boolean {
  if (NOT_PATHS.has(token.toLowerCase().replace(/\.$/, ''))) return false;
  if (token.includes('/')) return /[A-Za-z0-9]/.test(token);
  return FILE_NAME.test(token) || DOTFILE.test(token);
}

/** `./src/a.ts` and `src/a.ts` are one path; a trailing slash names the same folder. */
function normalizePath(path: string): string {
  return path
    .replace(/^\.\/+/, '')
    .replace(/\/+$/, '')
    .replace(/\/{2,}/g, '/')
    .toLowerCase();
}

function numberNorm(word: string): string | undefined {
  if (/^\d+$/.test(word)) return String(Number(word));
  const value = numberWordValue(word);
  return value === undefined ? undefined : String(value);
}

/** The request's words a contract must account for, each once: quoted texts, names, then paths and numbers as they appear, then type words. */
export function requestWords(task: string, typeWords: readonly string[] = []): RequestWord[] {
  const found: RequestWord[] = [];
  const seen = new Set<string>();
  const add = (word: RequestWord) => {
    const key = `${word.kind}\u0000${word.norm}`;
    if (seen.has(key) || !word.norm) return;
    seen.add(key);
    found.push(word);
  };
  // Quoted text first, then blanked out so its numbers and paths are not demanded twice.
  const rest = task.replace(QUOTED, (...groups: unknown[]) => {
    const text = (groups.slice(1, 5).find((group) => typeof group === 'string') as string).trim();
    add({ kind: 'quoted', text, norm: text.toLowerCase() });
    return ' ';
  });
  for (const match of rest.matchAll(NAME_AFTER)) {
    const name = (match[1] as string).replace(/[.]+$/, '');
    add({ kind: 'name', text: name, norm: name.toLowerCase() });
  }
  const raws = rest.split(/\s+/).filter(Boolean);
  const tokens = raws.map((raw) => raw.replace(EDGE_PUNCTUATION, '').replace(/\.$/, ''));
  tokens.forEach((token, at) => {
    if (!token) return;
    if (isPathWord(token)) {
      add({ kind: 'path', text: token, norm: normalizePath(token) });
      return;
    }
    const pair = PAIR_WORDS[token.toLowerCase()];
    if (pair !== undefined && tokens[at + 1]?.toLowerCase() === 'of')
      add({ kind: 'number', text: token, norm: pair });
    for (const part of token.split(/[-\u2013]/)) {
      const norm = numberNorm(part);
      if (norm !== undefined) add({ kind: 'number', text: part, norm });
    }
  });
  for (const count of countsOfTypes(raws, tokens, typeWords)) add(count);
  for (const type of typeWords) add({ kind: 'type', text: type.trim(), norm: type.trim().toLowerCase() });
  return found;
}

/** "a pair of", "a couple of": two, as a contract must state it. */
const PAIR_WORDS: Readonly<Record<string, string>> = { pair: '2', couple: '2' };

const numberOrHalf = (token: string | undefined) =>
  token !== undefined && (numberNorm(token.toLowerCase()) !== undefined || /^half$/i.test(token));

/**
 * Each number written right before one of the type words ("three suites", "2 test cases",
 * "a couple of suites"): the count of that type. Skipped where the number is part of a longer
 * one ("3 dozen", "half a dozen", "twenty one"), or punctuation parts it from the type.
 */
function countsOfTypes(raws: string[], tokens: string[], typeWords: readonly string[]): RequestWord[] {
  const types = typeWords.map((type) => type.trim().toLowerCase().split(/\s+/)).filter((words) => words[0]);
  const counts: RequestWord[] = [];
  tokens.forEach((token, at) => {
    const lower = token.toLowerCase();
    const pair = PAIR_WORDS[lower] !== undefined && tokens[at + 1]?.toLowerCase() === 'of';
    const norm = pair ? PAIR_WORDS[lower] : numberNorm(lower);
    if (norm === undefined || raws[at] !== token) return;
    const before = tokens[at - 1];
    if (numberOrHalf(before) || (/^an?$/i.test(before ?? '') && numberOrHalf(tokens[at - 2]))) return;
    const from = at + (pair ? 2 : 1);
    if (pair && raws[at + 1]?.toLowerCase() !== 'of') return;
    const type = types.find((words) =>
      words.every(
        (word, index) =>
          tokens[from + index]?.toLowerCase() === word &&
          (index === words.length - 1 || raws[from + index] === tokens[from + index]),
      ),
    );
    if (type)
      counts.push({
        kind: 'count',
        text: tokens.slice(at, from + type.length).join(' '),
        norm: `${norm} ${type.join(' ')}`,
      });
  });
  return counts;
}

/** `3 suites` → [3, "suites"]; undefined for a string that is no count of a type. */
function countPhrase(text: string): [string, string] | undefined {
  const match = /^(\d+)\s+(\S.*)$/.exec(text.trim().toLowerCase());
  return match ? [String(Number(match[1])), match[2] as string] : undefined;
}

function accounts(stated: string, word: RequestWord): boolean {
  const lower = stated.toLowerCase().trim();
  switch (word.kind) {
    case 'number':
      return numberNorm(lower) === word.norm;
    case 'path':
      return normalizePath(lower) === word.norm;
    case 'type':
      return lower === word.norm || sameType(lower, word.norm);
    default:
      return lower === word.norm || lower.includes(word.norm);
  }
}

/**
 * A count of a type is accounted for by a stated count of that type with the same number. A
 * contract that states no count of that type at all (an agent whose words carry no counts)
 * is not held to it: the number itself is still demanded as a `number` word.
 */
function countAccounted(word: RequestWord, stated: readonly string[]): boolean {
  const [number, type] = countPhrase(word.norm) as [string, string];
  const sameTyped = stated
    .map(countPhrase)
    .filter((phrase): phrase is [string, string] => phrase !== undefined && sameType(phrase[1], type));
  return sameTyped.length === 0 || sameTyped.some(([stated]) => stated === number);
}

/** The request words no stated word accounts for, as the request spelled them. */
export function unaccounted(wanted: readonly RequestWord[], stated: readonly string[]): string[] {
  return wanted
    .filter((word) =>
      word.kind === 'count' ? !countAccounted(word, stated) : !stated.some((text) => accounts(text, word)),
    )
    .map((word) => word.text);
}
