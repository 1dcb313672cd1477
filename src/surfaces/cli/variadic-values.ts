import { existsSync } from 'node:fs';

/**
 * Flags that take several values, and what a further value of each looks like. Commander's own
 * variadic options take every word up to the next flag, so `tally fish --captures a.har "1 suite"`
 * lost the request to --captures. These flags are single-valued (repeatable) in commander; here a
 * word after one becomes another value of it only while it looks like one, and the first word
 * that does not is left where it is: the request, a run id.
 */
const LOOKS_LIKE: Record<string, (word: string) => boolean> = {
  '--captures': (word) => /\.(har|json)$/i.test(word) || existsSync(word),
  '--spec': (word) => /^https?:\/\//i.test(word) || /\.(json|ya?ml)$/i.test(word) || existsSync(word),
  '--header': (word) => /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\s*:/.test(word),
  '--allow-origin': (word) => /^https?:\/\/\S+$/i.test(word),
  '--var': (word) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(word),
};

/** `--emit FORMAT FILE`: exactly two words, whatever they look like. */
const FIXED_COUNT: Record<string, number> = { '--emit': 2 };

/** The value collector for such a flag: every value, in order, across repeats. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * Rewrites `--captures a.har b.har REQUEST` into `--captures a.har --captures b.har REQUEST`,
 * stopping at the first word that is not a value of the flag. Untouched after `--`.
 */
export function splitVariadicValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  let index = 0;
  while (index < argv.length) {
    const word = argv[index] as string;
    out.push(word);
    index += 1;
    if (word === '--') {
      out.push(...argv.slice(index));
      break;
    }
    const looksLike = LOOKS_LIKE[word];
    const fixed = FIXED_COUNT[word];
    if (!looksLike && fixed === undefined) continue;
    // The first value always belongs to the flag (commander reports a missing one).
    if (index < argv.length) {
      out.push(argv[index] as string);
      index += 1;
    }
    let taken = 1;
    while (index < argv.length) {
      const next = argv[index] as string;
      if (next.startsWith('-')) break;
      if (fixed !== undefined ? taken >= fixed : !looksLike?.(next)) break;
      out.push(word, next);
      index += 1;
      taken += 1;
    }
  }
  return out;
}
