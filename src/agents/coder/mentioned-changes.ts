/** How the model's text describes a change: `written` covers both created and updated. */
export type SaidChange = 'created' | 'written' | 'updated' | 'deleted' | 'moved';

export interface MentionedChange {
  /** The file as the text spells it. */
  spelling: string;
  said: SaidChange;
  verb: string;
  /** The sentence refers back to earlier turns (`earlier`, `in turn 1`, `previously` …). */
  recap: boolean;
}

const RECAP = /\b(earlier|previously|before|already|so far|last turn|previous turn|first turn|turn \d+)\b/i;

const VERBS: Record<string, SaidChange> = {
  created: 'created',
  generated: 'created',
  scaffolded: 'created',
  added: 'written',
  wrote: 'written',
  written: 'written',
  saved: 'written',
  rewrote: 'written',
  rewritten: 'written',
  replaced: 'written',
  updated: 'updated',
  modified: 'updated',
  changed: 'updated',
  edited: 'updated',
  fixed: 'updated',
  patched: 'updated',
  refactored: 'updated',
  adjusted: 'updated',
  amended: 'updated',
  tweaked: 'updated',
  deleted: 'deleted',
  removed: 'deleted',
  moved: 'moved',
  renamed: 'moved',
};
const VERB_PATTERN = new RegExp(`\\b(${Object.keys(VERBS).join('|')})\\b`, 'gi');

/** Words before a verb that make it no claim: negation, intent, condition. */
const NOT_A_CLAIM =
  /\b(not|never|nothing|didn't|don't|doesn't|haven't|hasn't|hadn't|wasn't|weren't|isn't|aren't|cannot|can't|couldn't|won't|wouldn't|without|will|would|should|could|can|may|might|must|shall|need|needs|going|want|wants|plan|if|once|to|be)\b/i;
/** Words between a verb and a file that detach the file from the verb. */
const BREAKER =
  /\b(read|looked|checked|inspected|opened|listed|viewed|searched|grepped|found|saw|examined|reviewed|left|kept|ran|verified|confirmed|but|although|however|while|untouched|unchanged|except|without)\b/i;
/** After a file, a passive change: `src/a.ts was updated`, `src/a.ts: created`. */
const PASSIVE_GAP = /^[\s:\-—–()]*$/;
const AUXILIARY_GAP =
  /^[\s,]*(?:(?:and|or|is|was|were|are|has|have|had|been|got|now|also|successfully|just|all|both|then|already)\b[\s,]*)*$/i;
const HAS_AUXILIARY = /\b(is|was|were|are|has|have|had|been|got)\b/i;
/** A content edit inside a file (`removed the import from src/a.ts`), not a file-level change. */
const INSIDE = /\b(in|into|inside|within|from|to|of|for)\b/i;

const NOT_FILES = new Set([
  'e.g',
  'i.e',
  'etc',
  'vs',
  'a.m',
  'p.m',
  'node.js',
  'next.js',
  'vue.js',
  'nuxt.js',
  'express.js',
  'three.js',
  'd3.js',
  'chart.js',
  'socket.io',
  'and/or',
  'either/or',
  'read/write',
  'input/output',
  'created/updated',
  'true/false',
  'yes/no',
  'on/off',
  'client/server',
  'w/o',
]);
const NAME_DOT_EXT = /^[\w@.~-]*[\w@~-]\.[A-Za-z][A-Za-z0-9]{0,9}$/;

function fileLike(raw: string): string | undefined {
  const token = raw
    .replace(/^[.:!?]+(?=[^./])/, '')
    .replace(/[.:!?]+$/, '')
    .replace(/:\d+(:\d+)?$/, '');
  if (!token || NOT_FILES.has(token.toLowerCase()) || !/[A-Za-z]/.test(token) || token.startsWith('//'))
    return undefined;
  if (token.includes('/') || NAME_DOT_EXT.test(token)) return token;
  return undefined;
}

interface Span {
  start: number;
  end: number;
  text: string;
}

function without(text: string, from: number, spans: Span[]): string {
  let out = text;
  for (const span of [...spans].sort((a, b) => b.start - a.start)) {
    const start = span.start - from;
    const end = span.end - from;
    if (start >= 0 && end <= out.length) out = `${out.slice(0, start)} ${out.slice(end)}`;
  }
  return out;
}

function claimsIn(sentence: string): MentionedChange[] {
  if (sentence.trim().endsWith('?')) return [];
  const files: Span[] = [];
  for (const match of sentence.matchAll(/[^\s"'()<>[\]{},;`*]+/g)) {
    const spelling = fileLike(match[0]);
    if (spelling) files.push({ start: match.index, end: match.index + match[0].length, text: spelling });
  }
  if (files.length === 0) return [];
  const verbs: Span[] = [...sentence.matchAll(VERB_PATTERN)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
    text: match[0].toLowerCase(),
  }));
  const claims: MentionedChange[] = [];
  for (const file of files) {
    const others = files.filter((other) => other !== file);
    const before = verbs.filter((verb) => verb.end <= file.start).at(-1);
    let verb: Span | undefined;
    let gap = '';
    if (before) {
      gap = without(sentence.slice(before.end, file.start), before.end, others);
      if (gap.length <= 120 && !BREAKER.test(gap)) verb = before;
    }
    if (!verb) {
      const after = verbs.find((candidate) => candidate.start >= file.end);
      const passive = after ? without(sentence.slice(file.end, after.start), file.end, others) : '';
      if (
        after &&
        (PASSIVE_GAP.test(passive) || (AUXILIARY_GAP.test(passive) && HAS_AUXILIARY.test(passive)))
      ) {
        verb = after;
        gap = '';
      }
    }
    if (!verb) continue;
    const lead = sentence.slice(0, verb.start).split(/\s+/).filter(Boolean).slice(-4).join(' ');
    if (verb.start < file.start && NOT_A_CLAIM.test(lead)) continue;
    let said = VERBS[verb.text] as SaidChange;
    const gapHasFile = others.some((other) => other.start >= verb.end && other.end <= file.start);
    // `moved src/a.ts to src/b.ts` is a move; `moved the helper to src/b.ts` edits src/b.ts.
    if (!(said === 'moved' && gapHasFile) && INSIDE.test(gap)) said = 'written';
    claims.push({ spelling: file.text, said, verb: verb.text, recap: RECAP.test(sentence) });
  }
  return claims;
}

/**
 * The file changes a reply asserts. The rule: fenced code blocks and URLs are ignored; the
 * text is cut into sentences (line breaks, and `.`/`!`/`?` before whitespace); questions are
 * skipped. A file-like token (contains `/`, or `name.ext`) is tied to the nearest change verb
 * before it in the sentence (past tense: created, added, wrote, updated, fixed, deleted,
 * moved, …) unless a reading word (read, checked, left, unchanged, but …) sits between them,
 * or else to a change verb right after it in passive form (`src/a.ts was updated`,
 * `src/a.ts: created`). A verb preceded within four words by a negation or intent (not,
 * didn't, will, should, to, if …) is no claim. A verb with a preposition before the file
 * (`added a test to src/a.ts`) claims a content change (`written`). A sentence that refers
 * back (`earlier`, `in turn 1`, `previously` …) is marked as a recap.
 */
export function mentionedChanges(text: string): MentionedChange[] {
  const prose = text.replace(/```[\s\S]*?(```|$)/g, '\n').replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, ' ');
  return prose.split(/\n+|(?<=[.!?])\s+/).flatMap(claimsIn);
}
