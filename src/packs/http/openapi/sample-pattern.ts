const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const DIGITS = '1234567890';
/** What an escape admits, the plain sample first (`\d` → `1`, `\w` → `a`). */
const ESCAPES: Record<string, string> = {
  d: DIGITS,
  w: `${LOWER}${UPPER}${DIGITS}_`,
  s: ' ',
  D: `${LOWER}${UPPER}`,
  W: '-',
  S: `${LOWER}${DIGITS}`,
};
const ANY = `${LOWER}${DIGITS}`;
/** A class range wider than this (`\u0000-\uffff`) is sampled from its first characters only. */
const MAX_RANGE = 128;
/** How many more repetitions than the least a seeded sample may use (`[a-z]+` → up to 5 letters). */
const EXTRA_REPEATS = 4;

/** The characters a `[...]` body admits, the plain sample first; undefined for negated classes. */
function classAlphabet(body: string): string | undefined {
  if (body.startsWith('^')) return undefined;
  let out = '';
  for (let at = 0; at < body.length; ) {
    let char = body[at] as string;
    if (char === '\\') {
      const next = body[at + 1] ?? '';
      at += 2;
      const escaped = ESCAPES[next];
      if (escaped !== undefined) {
        out += escaped;
        continue;
      }
      char = next;
    } else {
      at++;
    }
    const to = body[at + 1];
    if (body[at] === '-' && to !== undefined && to !== '\\') {
      const from = char.codePointAt(0) as number;
      const end = Math.min(to.codePointAt(0) as number, from + MAX_RANGE - 1);
      for (let code = from; code <= end; code++) out += String.fromCodePoint(code);
      at += 2;
    } else {
      out += char;
    }
  }
  return [...new Set(out)].join('') || undefined;
}

interface Atom {
  /** The characters this position may take; one character is a literal. */
  alphabet: string;
  min: number;
  /** Undefined: unbounded (`+`, `*`, `{2,}`). */
  max: number | undefined;
}

/** The pattern as atoms with their repetition limits, or undefined beyond simple patterns. */
function atomsOf(pattern: string): Atom[] | undefined {
  if (/[()|]/.test(pattern)) return undefined;
  const atoms: Atom[] = [];
  let at = pattern.startsWith('^') ? 1 : 0;
  const end = pattern.endsWith('$') && !pattern.endsWith('\\$') ? pattern.length - 1 : pattern.length;
  while (at < end) {
    let alphabet: string | undefined;
    const char = pattern[at] as string;
    if (char === '\\') {
      const next = pattern[at + 1] ?? '';
      alphabet = ESCAPES[next] ?? next;
      at += 2;
    } else if (char === '[') {
      const close = pattern.indexOf(']', at + 2);
      if (close < 0) return undefined;
      alphabet = classAlphabet(pattern.slice(at + 1, close));
      at = close + 1;
    } else {
      alphabet = char === '.' ? ANY : char;
      at++;
    }
    if (alphabet === undefined) return undefined;
    let min = 1;
    let max: number | undefined = 1;
    const quantifier = /^(?:\{(\d+)(?:(,)(\d*))?\}|[+*?])/.exec(pattern.slice(at, end));
    if (quantifier) {
      if (quantifier[1] !== undefined) {
        min = Number(quantifier[1]);
        max = quantifier[2] === undefined ? min : quantifier[3] ? Number(quantifier[3]) : undefined;
      } else {
        min = quantifier[0] === '+' ? 1 : 0;
        max = quantifier[0] === '?' ? 1 : undefined;
      }
      at += quantifier[0].length;
    }
    atoms.push({ alphabet, min, max });
  }
  return atoms;
}

/**
 * The string for `seed`: each varying position is a digit of the seed in the mixed radix of
 * the positions' alphabets, the last position changing fastest — so seeds that differ by
 * less than the pattern's number of strings give different strings.
 */
function render(atoms: Atom[], seed: bigint, extend: boolean): string {
  const positions: string[] = [];
  for (const atom of atoms) {
    const room = atom.max === undefined ? EXTRA_REPEATS : atom.max - atom.min;
    const times = atom.min + (extend && atom.alphabet.length > 1 ? Math.min(EXTRA_REPEATS, room) : 0);
    for (let count = 0; count < times; count++) positions.push(atom.alphabet);
  }
  let rest = seed;
  const chars = new Array<string>(positions.length);
  for (let at = positions.length - 1; at >= 0; at--) {
    const alphabet = [...(positions[at] as string)];
    const radix = BigInt(alphabet.length);
    chars[at] = alphabet[Number(rest % radix)] as string;
    rest /= radix;
  }
  return chars.join('');
}

/** Whether `text` matches a schema's pattern; a pattern JavaScript cannot compile matches nothing. */
export function matchesPattern(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch (error) {
    // Then no sample comes from it: the example or a plain value is used.
    if (error instanceof SyntaxError) return false;
    throw error;
  }
}

export interface PatternOptions {
  /**
   * Vary the sample: distinct seeds give distinct strings, as far as the pattern allows
   * (optional repetitions are used for room). Without one, the plainest string.
   */
  seed?: bigint;
  minLength?: number;
  maxLength?: number;
}

/**
 * A string matching a simple pattern (literals, `\d`, `\w`, classes, `.`, quantifiers),
 * checked against the pattern itself and the length limits; undefined when the pattern is
 * beyond that (groups, alternation, look-arounds) — the caller then falls back to the
 * schema's example.
 */
export function samplePattern(pattern: string, options: PatternOptions = {}): string | undefined {
  const atoms = atomsOf(pattern);
  if (!atoms) return undefined;
  const fits = (text: string) =>
    text.length >= (options.minLength ?? 0) &&
    text.length <= (options.maxLength ?? Number.POSITIVE_INFINITY) &&
    matchesPattern(pattern, text);
  const tries =
    options.seed === undefined
      ? [render(atoms, 0n, false)]
      : [render(atoms, options.seed, true), render(atoms, options.seed, false)];
  return tries.find(fits);
}
