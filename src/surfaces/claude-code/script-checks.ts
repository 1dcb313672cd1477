/**
 * The little languages inside read-only commands: sed scripts, awk programs (`awk-program.ts`)
 * and find expressions. Each check reads the text the way the tool does, closely enough that
 * anything it cannot place is refused: sed's `w`/`W`/`e` commands and `s///w`/`s///e` flags,
 * awk's `system()`, pipes, `@load`/`@include` and `print >`, find's `-exec`/`-ok`/`-delete`/`-fprint`.
 */

/** GNU sed's match_slash: up to the next unescaped delimiter (no bracket awareness). */
function skipDelimited(script: string, at: number, delimiter: string): number {
  for (let index = at; index < script.length; index += 1) {
    const char = script[index];
    if (char === '\\') index += 1;
    else if (char === delimiter) return index + 1;
    else if (char === '\n' && delimiter !== '\n') return -1;
  }
  return -1;
}

function skipAddress(script: string, at: number): number {
  let index = at;
  if (/[0-9$]/.test(script[index] ?? '')) {
    while (/[0-9~$]/.test(script[index] ?? '')) index += 1;
    return index;
  }
  if (script[index] === '/' || script[index] === '\\') {
    const delimiter = script[index] === '/' ? '/' : (script[index + 1] ?? '');
    if (delimiter === '' || delimiter === '\n' || delimiter === '\\') return -1;
    index = skipDelimited(script, index + (script[index] === '/' ? 1 : 2), delimiter);
    if (index < 0) return -1;
    while (script[index] === 'I' || script[index] === 'M') index += 1;
  }
  return index;
}

const SED_SIMPLE = '=dDgGhHnNpPxzF}';
// Text or a file to read: up to the end of the line (GNU reads `a`, `i`, `c`, `r`, `R` so).
const SED_TO_LINE_END = 'aicrR';
// A label or a number: up to `;`, a newline or `}` (GNU stops there; stopping early is the safe side).
const SED_LABEL = ':btTqQLlv';

/** Why a sed script can write or run programs, or undefined when it only prints. */
export function sedScriptCheck(script: string): string | undefined {
  let index = 0;
  const at = () => script[index] ?? '';
  while (index < script.length) {
    while (/[\s;]/.test(at())) index += 1;
    if (index >= script.length) break;
    if (at() === '#') {
      while (index < script.length && at() !== '\n') index += 1;
      continue;
    }
    index = skipAddress(script, index);
    if (index < 0) return 'a sed address it cannot read';
    if (at() === ',') {
      index += 1;
      if (at() === '+' || at() === '~') index += 1;
      index = skipAddress(script, index);
      if (index < 0) return 'a sed address it cannot read';
    }
    while (/[\s!]/.test(at())) index += 1;
    const command = at();
    index += 1;
    if (command === '{' || SED_SIMPLE.includes(command)) continue;
    if (command === 'w' || command === 'W') return `the sed command ${command}, which writes a file`;
    if (command === 'e') return 'the sed command e, which runs a program';
    if (SED_TO_LINE_END.includes(command)) {
      while (index < script.length && at() !== '\n') index += at() === '\\' ? 2 : 1;
      continue;
    }
    if (SED_LABEL.includes(command)) {
      while (index < script.length && !/[;\n}]/.test(at())) index += 1;
      continue;
    }
    if (command === 's' || command === 'y') {
      const delimiter = at();
      if (delimiter === '' || delimiter === '\n' || delimiter === '\\')
        return `a sed ${command} it cannot read`;
      index = skipDelimited(script, index + 1, delimiter);
      if (index >= 0) index = skipDelimited(script, index, delimiter);
      if (index < 0) return `a sed ${command} command it cannot read`;
      if (command === 'y') continue;
      while (/[gpiImM0-9]/.test(at())) index += 1;
      if (at() === 'w') return 'the sed s///w flag, which writes a file';
      if (at() === 'e') return 'the sed s///e flag, which runs a program';
      if (at() !== '' && !/[\s;}#]/.test(at())) return `the sed s/// flag ${at()}`;
      continue;
    }
    return `the sed command ${JSON.stringify(command)}`;
  }
  return undefined;
}

export { awkProgramCheck } from './awk-program.js';

// find's primaries that only test or print, by the number of words they take.
const FIND_TESTS_0 = new Set(
  (
    '-print -print0 -ls -prune -quit -true -false -empty -readable -writable -executable -nouser ' +
    '-nogroup -depth -d -mount -xdev -noleaf -follow -ignore_readdir_race -noignore_readdir_race ' +
    '-not -a -and -o -or ! ( ) , -daystart -warn -nowarn -posix'
  ).split(' '),
);
const FIND_TESTS_1 = new Set(
  (
    '-name -iname -path -ipath -wholename -iwholename -regex -iregex -type -xtype -size -mtime -mmin ' +
    '-atime -amin -ctime -cmin -used -newer -anewer -cnewer -user -group -uid -gid -perm -links ' +
    '-samefile -inum -lname -ilname -maxdepth -mindepth -regextype -fstype -printf -context -files0-from'
  ).split(' '),
);
const FIND_WRITERS = new Set('-exec -execdir -ok -okdir -delete -fprint -fprint0 -fprintf -fls'.split(' '));

/** Why a find command line can write or run programs (its words after `find`). */
export function findCheck(words: { word: string; glob: boolean }[]): string | undefined {
  let index = 0;
  // Leading options: -H -L -P, -D debugopts, -O level.
  for (; index < words.length; index += 1) {
    const word = words[index]?.word as string;
    if (word === '-H' || word === '-L' || word === '-P' || /^-O\d$/.test(word)) continue;
    if (word === '-D') {
      index += 1;
      continue;
    }
    break;
  }
  // Starting points: everything before the first word that starts an expression.
  for (; index < words.length; index += 1) {
    const { word, glob } = words[index] as { word: string; glob: boolean };
    if (glob)
      return `the glob ${word.slice(0, 40)} among find's starting points (it could expand to a primary)`;
    if (word.startsWith('-') || word === '(' || word === ')' || word === '!' || word === ',') break;
  }
  for (; index < words.length; index += 1) {
    const { word } = words[index] as { word: string; glob: boolean };
    const glob = words.slice(index, index + 2).find((next) => next.glob);
    if (glob) return `the glob ${glob.word.slice(0, 40)} in a find expression (it could expand to a primary)`;
    if (FIND_WRITERS.has(word)) return `find ${word}, which writes or runs programs`;
    if (FIND_TESTS_0.has(word)) continue;
    if (FIND_TESTS_1.has(word) || /^-newer[aBcmt][aBcmt]$/.test(word)) {
      if (index + 1 >= words.length) return `find ${word} without its value`;
      index += 1;
      continue;
    }
    return `the find primary or word ${word.slice(0, 40)}, not known to be read-only`;
  }
  return undefined;
}
