const COMMAND_START =
  /^(npm|npx|node|pnpm|yarn|git|psql|docker|kubectl|make|curl|tally|python3?|pip|cargo|go|bash|sh|ssh|rsync|terraform|helm)\b/;

/** What a record states as commands: those it says to run, and those it states only to warn against. */
export interface StatedCommands {
  /** Command lines the record states, verbatim, not as a warning: what a scout may report. */
  commands: string[];
  /** Command lines the record states only where it says not to run them ("Never run `git push --force`"). */
  warned: string[];
}

/**
 * A word that turns a clause against what follows it: a prohibition, not any "not" ("make sure
 * the tree is not dirty before `git tag -s`" still asks for the tag). Another one after it
 * turns it back ("never deploy without running `npm test`": the test run is what is asked).
 */
const NEGATOR =
  /\b(?:never|neither|avoid(?:ing)?|without|instead\s+of|rather\s+than|(?:do|does|did|must|should|shall|can|could|may|will|would|need)\s+not|(?:do|does|did|must|should|shall|ca|wo|would|need)n['\u2019]t|cannot)\b/gi;
/** After a negator, a verb that undoes it: "don't forget to run …", "never skip …". */
const NEGATED_NEGATION = /\b(?:forget|skip|omit|neglect|fail)\b/gi;
/** Where a clause of prose ends: what is before it says nothing about a code span after it. */
const CLAUSE_END = /[.;!?,:]\s|\s[\u2013\u2014-]\s|\(|\)/g;
/** A label that introduces an example of what not to do: "**Wrong:**", "Dangerous:" (a negated line is read by `endsWithWarning`). */
const WARNING_LABEL = /^\s*(?:[*_#>-]\s*)*(?:wrong|bad|incorrect|dangerous|unsafe)\b[^:]*:[\s*_]*$/i;

/**
 * A mark that says "not this" on its own: "❌ `npm install --force`", "- 🚫 `git push -f`". Not a
 * negation that another one undoes: "❌ Don't run `x`" is emphasis, still against `x`.
 */
const WARNING_MARK = /[\u274C\u{1F6AB}\u26D4\u2717\u2718\u2716]|:(?:x|no_entry(?:_sign)?):/u;
/** A list item's bullet or number: the lines a label ending in a colon introduces. */
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s/;

/**
 * A negator that takes an object (`avoid X`, `without X`) is against its object only: a means
 * after it (`avoid downtime by running these:`, `deploy without downtime by running`) is what is
 * asked; a negated means (`by not running`) is not. Nor when the object is itself a run or the
 * commands (`avoid running these by hand`, `avoid these by …`, a span).
 */
const OBJECT_NEGATOR = /^(?:avoid(?:ing)?|without)$/i;
const MEANS_AFTER_OBJECT =
  /^\s+((?:(?!\bby\b)[^`]){1,120}?)\s+by\s+(?:(not|never)\s+)?(?:(?:first|always|just|simply|\p{L}+ly)\s+)?\p{L}+ing\b/iu;
const NAMES_THE_COMMANDS =
  /\b(?:run\w*|us(?:e|es|ing)|execut\w*|call\w*|invok\w*|typ\w*|these|those|them|the\s+following|commands?|scripts?)\b/i;

/** Whether a negator is against its own object only, not what follows (see `MEANS_AFTER_OBJECT`). */
function aimedElsewhere(text: string, negator: RegExpMatchArray): boolean {
  if (!OBJECT_NEGATOR.test(negator[0])) return false;
  const means = MEANS_AFTER_OBJECT.exec(text.slice((negator.index as number) + negator[0].length));
  // A negated means (`by not running these`) keeps the clause against them: one negation still.
  return means !== null && !NAMES_THE_COMMANDS.test(means[1] as string) && means[2] === undefined;
}

/** Whether the negations in `text` leave it against what follows (an odd count, doubles undone). */
function turnsAgainst(text: string): boolean {
  const negators = [...text.matchAll(NEGATOR)].filter((negator) => !aimedElsewhere(text, negator));
  // A clause opened by "not" is a contrast: "use `a`, not `b`".
  const contrast = /^\s*(?:(?:and|but|or)\s+)?not\b/i.test(text) ? 1 : 0;
  if (negators.length + contrast === 0) return false;
  const first = negators.length > 0 ? ((negators[0] as RegExpMatchArray).index as number) : 0;
  // "Don't forget to …" — such a verb after a negator cancels one.
  const undone = [...text.matchAll(NEGATED_NEGATION)].filter((match) => (match.index as number) > first);
  return (negators.length + contrast + undone.length) % 2 === 1;
}

/** The text from the start of the clause a position is in up to that position. */
function clauseBefore(line: string, at: number): string {
  let start = 0;
  for (const match of line.slice(0, at).matchAll(CLAUSE_END)) start = match.index + match[0].length;
  return line.slice(start, at);
}

/** `text` without the trailing characters in `chars` (a loop: an anchored regex is quadratic on long runs). */
function withoutTrailing(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1] as string)) end -= 1;
  return text.slice(0, end);
}

const TRAILING_MARKUP = ' \t*_';
/** How far back in its clause a span's warning is looked for (characters). */
const CLAUSE_REACH = 400;
const CLAUSE_PUNCTUATION = '.;!?,:';

/**
 * The clauses of a line up to each code span, walked once from left to right: `before(at)` is
 * the clause a span at `at` is in, up to it, and the clause before that one (a line of
 * thousands of spans is read in one pass, not one per span).
 */
function clauseWalker(line: string): (at: number) => { clause: string; previous: string } {
  const ends = line.matchAll(CLAUSE_END);
  let next = ends.next();
  let start = 0;
  let previousStart = 0;
  return (at) => {
    while (!next.done && next.value.index + next.value[0].length <= at) {
      previousStart = start;
      start = next.value.index + next.value[0].length;
      next = ends.next();
    }
    // A negation reaches a span from within the last few hundred characters of its clause:
    // read no more, or a line of spans with no punctuation between them is read once per span.
    return {
      clause: line.slice(Math.max(start, at - CLAUSE_REACH), at),
      previous: line.slice(Math.max(previousStart, start - CLAUSE_REACH), start),
    };
  };
}

/**
 * Whether the prose before a code span warns against it: its own clause says not to run it,
 * bears a warning mark, or is empty right after a label that warns ("Bad: `x`", "Don't:
 * `x`", "**Avoid:** `x`").
 */
function spanWarned({ clause, previous }: { clause: string; previous: string }): boolean {
  if (turnsAgainst(clause) || WARNING_MARK.test(clause)) return true;
  if (/[\p{L}\p{N}`]/u.test(clause)) return false;
  const label = withoutTrailing(previous, TRAILING_MARKUP);
  if (!label.endsWith(':')) return false;
  let from = label.length - 1;
  while (from > 0 && !CLAUSE_PUNCTUATION.includes(label[from - 1] as string)) from -= 1;
  return labelWarns(label.slice(from));
}

/**
 * Whether a line ending in a colon introduces what not to do: "Wrong:", "Never run this:",
 * "❌ These:"; its last clause decides ("Never push on Friday; run this:" asks for it).
 */
function labelWarns(line: string): boolean {
  const trimmed = withoutTrailing(line, TRAILING_MARKUP);
  if (!trimmed.endsWith(':')) return false;
  const clause = clauseBefore(trimmed, trimmed.length - 1);
  return WARNING_LABEL.test(line) || turnsAgainst(clause) || WARNING_MARK.test(clause);
}

/**
 * What a fenced block holds, by its info string: a script (`sh`, `bash`, `sql` …: every line a
 * command), a session (`console`: the prompted lines; the rest is output), code or data (`json`,
 * `yaml`, `ts` …: no command), or plain (no tag: a prompted line, or one that starts like a
 * command; `12 passing` or `{ "a": 1 }` is output or data, not something to run).
 */
type BlockKind = 'script' | 'session' | 'code' | 'plain';
const SCRIPT_TAGS = new Set([
  'sh',
  'bash',
  'shell',
  'zsh',
  'fish',
  'ksh',
  'powershell',
  'pwsh',
  'ps1',
  'cmd',
  'bat',
  'batch',
  'sql',
  'psql',
]);
const SESSION_TAGS = new Set([
  'console',
  'terminal',
  'shell-session',
  'sh-session',
  'shellsession',
  'bash-session',
]);
/** A shell prompt before a command line: `$ npm ci`, `% make`, `PS C:\\app> npm ci`. */
const PROMPT = /^(?:\$|%|PS>|PS\s\S*>)\s+/;
/** How a plain block's line starts when it is a command: a known tool, a script, `cd`, `sudo` …. */
const PLAIN_COMMAND = /^(?:\.{1,2}\/\S|(?:cd|export|sudo|env|source|chmod|mkdir|cp|mv|rm|ln|cat|echo|ls)\s)/;

function blockKind(tag: string): BlockKind {
  const lower = tag.toLowerCase();
  if (!lower) return 'plain';
  if (SCRIPT_TAGS.has(lower)) return 'script';
  return SESSION_TAGS.has(lower) ? 'session' : 'code';
}

/** The command a line of a fenced block states, by the block's kind; undefined for output, data, comments. */
function commandOf(line: string, kind: BlockKind): string | undefined {
  const text = line.trim();
  if (!text || kind === 'code') return undefined;
  const prompted = PROMPT.exec(text);
  if (prompted) return text.slice(prompted[0].length).trim() || undefined;
  if (kind === 'session') return undefined;
  // A comment in a script (`# rotate first`, `-- in psql`) is no command; a shebang neither.
  if (kind === 'script') return /^(?:#|--|::|REM\s)/i.test(text) ? undefined : text;
  return COMMAND_START.test(text) || PLAIN_COMMAND.test(text) ? text : undefined;
}

/**
 * Command lines a record states, verbatim: the commands of fenced code blocks (see `BlockKind`),
 * and inline code spans that start with a known command. The scout may report only `commands`; a command the record
 * states only as a warning — an inline span in a clause that says not to run it ("Never run
 * `git push --force` on main", "use `a`, not `b`"), or a block introduced as what not to do
 * ("Do not run this:", "Wrong:") — is in `warned` instead. A command stated both ways is a
 * command the record asks for somewhere, and stays in `commands`.
 */
export function statedCommands(markdown: string): StatedCommands {
  const commands = new Set<string>();
  const warned = new Set<string>();
  let fenced = false;
  let blockWarned = false;
  let block: BlockKind = 'plain';
  let lastProse = '';
  // A list right under a label that warns ("Never run these on main:", "- Avoid these:") is the
  // list of what not to run: its items, or for a label that is an item, the items nested in it.
  let listWarned = false;
  let labelIndent = 0;
  let labelIsItem = false;
  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const fence = /^\s*(?:```|~~~)\s*([\w+-]*)/.exec(line);
    if (fence) {
      fenced = !fenced;
      if (fenced) {
        blockWarned = labelWarns(lastProse);
        block = blockKind(fence[1] as string);
      }
      // A label introduces the block right after it, not one after that.
      else lastProse = '';
      listWarned = false;
      continue;
    }
    if (fenced) {
      const text = commandOf(line, block);
      if (text) (blockWarned ? warned : commands).add(text);
      continue;
    }
    if (line.trim()) {
      const item = LIST_ITEM.test(line);
      const indent = (/^\s*/.exec(line) as RegExpExecArray)[0].length;
      // The list goes on through its items and the lines indented under them; other prose ends it.
      const inList = indent > labelIndent || (item && !labelIsItem && indent === labelIndent);
      if (listWarned && !inList) listWarned = false;
      if (labelWarns(line)) {
        listWarned = true;
        labelIndent = indent;
        labelIsItem = item;
      }
      lastProse = line;
    }
    const before = clauseWalker(line);
    for (const match of line.matchAll(/`([^`\n]+)`/g)) {
      const span = (match[1] as string).trim();
      if (!COMMAND_START.test(span) || !span.includes(' ')) continue;
      (listWarned || spanWarned(before(match.index)) ? warned : commands).add(span);
    }
  }
  for (const command of commands) warned.delete(command);
  return { commands: [...commands], warned: [...warned] };
}
