import type { ShellWord } from './shell-words.js';

/**
 * One command's option allow-list, written compactly:
 * - `flags`: short options without a value (`'alh'` → `-a`, `-l`, `-h`).
 * - `values`: short options that take a value, attached (`-n5`) or as the next word (`-n 5`).
 * - `optional`: short options whose value can only be attached (`git grep -O[pager]`, `date -I[fmt]`).
 * - `long`: long option names, space-separated; `name=` takes a value (`--name=v` or `--name v`),
 *   `name?` takes only an attached one (`--color[=when]`), a bare name takes none.
 * - `write`: options known to write or run programs, in the same notation with their dashes
 *   (`'-o --output= --compress-program='`). They are matched like the others, so an
 *   abbreviation resolves to them exactly as the real tool resolves it.
 * - `numeric`: `-5` style counts (`head -5`, `git log -3`) are allowed.
 * - `abbreviate`: long options may be abbreviated to a unique prefix (GNU getopt_long, git's
 *   parse-options). Without it only exact names match.
 * - `globs`: the command has no option that writes or runs programs, so a glob that expands to
 *   an option can at worst make it fail (`ls *`, `grep foo *`); otherwise globs are refused.
 *
 * Anything not on the list is refused: an unknown option is treated as a writer.
 */
export type OptionSpec = {
  flags?: string;
  values?: string;
  optional?: string;
  long?: string;
  write?: string;
  numeric?: boolean;
  abbreviate?: boolean;
  globs?: boolean;
};

export type ParsedOption = { name: string; value?: string };
export type ParsedArguments = { options: ParsedOption[]; operands: ShellWord[] };

type LongKind = 'flag' | 'value' | 'optional';
type Compiled = {
  flags: string;
  values: string;
  optional: string;
  writeShort: string;
  long: Map<string, LongKind>;
  writeLong: Set<string>;
  numeric: boolean;
  abbreviate: boolean;
};

const compiled = new WeakMap<OptionSpec, Compiled>();

function longKind(entry: string): [string, LongKind] {
  if (entry.endsWith('=')) return [entry.slice(0, -1), 'value'];
  if (entry.endsWith('?')) return [entry.slice(0, -1), 'optional'];
  return [entry, 'flag'];
}

function compile(spec: OptionSpec): Compiled {
  const known = compiled.get(spec);
  if (known) return known;
  const long = new Map<string, LongKind>();
  for (const entry of (spec.long ?? '').split(' ').filter(Boolean)) {
    const [name, kind] = longKind(entry);
    long.set(name, kind);
  }
  const writeLong = new Set<string>();
  let writeShort = '';
  for (const entry of (spec.write ?? '').split(' ').filter(Boolean)) {
    if (entry.startsWith('--')) {
      const [name, kind] = longKind(entry.slice(2));
      writeLong.add(name);
      if (!long.has(name)) long.set(name, kind);
    } else writeShort += entry.slice(1);
  }
  const result: Compiled = {
    flags: spec.flags ?? '',
    values: spec.values ?? '',
    optional: spec.optional ?? '',
    writeShort,
    long,
    writeLong,
    numeric: spec.numeric === true,
    abbreviate: spec.abbreviate === true,
  };
  compiled.set(spec, result);
  return result;
}

/** The long option a word names, after unique-prefix expansion where the tool does it. */
export function resolveLong(spec: OptionSpec, name: string): string | { refused: string } {
  const { long, abbreviate } = compile(spec);
  if (long.has(name)) return name;
  if (!abbreviate) return { refused: `the unknown option --${name}` };
  const matches = [...long.keys()].filter((candidate) => candidate.startsWith(name));
  if (matches.length === 1) return matches[0] as string;
  return matches.length === 0
    ? { refused: `the unknown option --${name}` }
    : { refused: `the ambiguous option --${name} (${matches.map((m) => `--${m}`).join(', ')})` };
}

/** A value given as the next word must not look like an option (unless it is a count like -5). */
function separateValue(
  spec: OptionSpec,
  words: ShellWord[],
  index: number,
  option: string,
): string | { refused: string } {
  const value = words[index];
  if (!value) return { refused: `the option ${option} without its value` };
  if (value.glob && spec.globs !== true) return { refused: `a glob as the value of ${option}` };
  if (value.word.startsWith('-') && !/^-\d+$/.test(value.word))
    return { refused: `the value ${value.word.slice(0, 40)} of ${option} (it looks like an option)` };
  return value.word;
}

/**
 * Parses a command's arguments against its allow-list, GNU style (options anywhere before `--`,
 * combined short flags split, values attached or separate). Returns why it refuses, if it does.
 */
export function parseOptions(spec: OptionSpec, words: ShellWord[]): ParsedArguments | { refused: string } {
  const c = compile(spec);
  const options: ParsedOption[] = [];
  const operands: ShellWord[] = [];
  for (let index = 0; index < words.length; index += 1) {
    const current = words[index] as ShellWord;
    const word = current.word;
    if (word === '--') {
      operands.push(...words.slice(index + 1));
      break;
    }
    if (current.glob && spec.globs !== true)
      return { refused: `the glob ${word.slice(0, 40)} (it could expand to an option)` };
    if (word === '-' || !word.startsWith('-')) {
      operands.push(current);
      continue;
    }
    if (word.startsWith('--')) {
      const equals = word.indexOf('=');
      const typed = equals < 0 ? word.slice(2) : word.slice(2, equals);
      const name = resolveLong(spec, typed);
      if (typeof name !== 'string') return name;
      if (c.writeLong.has(name))
        return { refused: `the option ${word.slice(0, 60)} (--${name}), which writes or runs programs` };
      const kind = c.long.get(name) as LongKind;
      if (equals >= 0) {
        if (kind === 'flag') return { refused: `the option --${name} with a value` };
        options.push({ name: `--${name}`, value: word.slice(equals + 1) });
      } else if (kind === 'value') {
        const value = separateValue(spec, words, index + 1, `--${name}`);
        if (typeof value !== 'string') return value;
        options.push({ name: `--${name}`, value });
        index += 1;
      } else options.push({ name: `--${name}` });
      continue;
    }
    if (c.numeric && /^-\d+$/.test(word)) {
      options.push({ name: '-#', value: word.slice(1) });
      continue;
    }
    for (let at = 1; at < word.length; at += 1) {
      const letter = word[at] as string;
      if (c.writeShort.includes(letter))
        return { refused: `the option -${letter} (in ${word.slice(0, 40)}), which writes or runs programs` };
      if (c.values.includes(letter) || c.optional.includes(letter)) {
        const attached = word.slice(at + 1);
        if (attached !== '' || c.optional.includes(letter)) {
          options.push({ name: `-${letter}`, value: attached });
          break;
        }
        const value = separateValue(spec, words, index + 1, `-${letter}`);
        if (typeof value !== 'string') return value;
        options.push({ name: `-${letter}`, value });
        index += 1;
        break;
      }
      if (!c.flags.includes(letter))
        return {
          refused: `the unknown option -${letter}${word.length > 2 ? ` (in ${word.slice(0, 40)})` : ''}`,
        };
      options.push({ name: `-${letter}` });
    }
  }
  return { options, operands };
}

/** Whether a parsed option list holds one of these names (`-l`, `--list`). */
export function hasOption(parsed: ParsedArguments, ...names: string[]): boolean {
  return parsed.options.some((option) => names.includes(option.name));
}
