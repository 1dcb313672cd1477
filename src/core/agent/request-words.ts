import { numberWordValue } from '../number-words.js';
import { sameType } from '../type-words.js';

/**
 * The words of a request that a stated contract must account for: numbers (digits and number
 * words), quoted strings, paths, the names after "project"/"scope"…, and the agent's type
 * words. "a"/"an" are not demanded: "a suite" states no number a contract could drop.
 */
export interface RequestWord {
  kind: 'number' | 'quoted' | 'path' | 'name' | 'type';
  /** As written in the request. */
  text: string;
  /** Compared form: digits for numbers, lower case otherwise. */
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
  for (const raw of rest.split(/\s+/)) {
    const token = raw.replace(EDGE_PUNCTUATION, '').replace(/\.$/, '');
    if (!token) continue;
    if (isPathWord(token)) {
      add({ kind: 'path', text: token, norm: normalizePath(token) });
      continue;
    }
    for (const part of token.split(/[-\u2013]/)) {
      const norm = numberNorm(part);
      if (norm !== undefined) add({ kind: 'number', text: part, norm });
    }
  }
  for (const type of typeWords) add({ kind: 'type', text: type.trim(), norm: type.trim().toLowerCase() });
  return found;
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

/** The request words no stated word accounts for, as the request spelled them. */
export function unaccounted(wanted: readonly RequestWord[], stated: readonly string[]): string[] {
  return wanted.filter((word) => !stated.some((text) => accounts(text, word))).map((word) => word.text);
}
