import { numberWordValue } from '../../core/number-words.js';
import type { ChangeFlag, FileChange } from './chat-record.js';
import { claimProse } from './claim-prose.js';
import { leadWords, sentencesOf } from './prose-sentences.js';

/** The verbs a count of changed files follows: `I updated 3 files`, `refactored two files`, `made changes to 4 files`. */
const COUNT_VERB = String.raw`(?:updated|edited|changed|modified|touched|created|added|wrote|written|rewrote|rewritten|deleted|removed|refactored|fixed|renamed|moved|reworked|adjusted|tweaked|patched|reformatted|formatted|cleaned\s+up|made\s+(?:changes|edits)\s+(?:to|in))`;
/** What a change of this turn does to files when the clause's subject is the change: `This touches 4 files`, `The diff covers 3 files`. */
const SPAN_VERB = String.raw`(?:touches|touched|spans|spanned|covers|covered|affects|affected|involves|involved)`;
/** `3`, `three`, `both`; then up to two words that say which files (`new`, `other`, `TypeScript`, `test`), perhaps `of the`. */
const COUNTED_FILES = String.raw`(?:a\s+total\s+of\s+|exactly\s+|all\s+|only\s+|just\s+)?(\d{1,4}|[a-z]+)\s+(?:of\s+(?:the|my|these|those)\s+)?((?:(?!(?:in|of|to|and|or|across|from|for|with|that|which)\b)[\p{L}][\p{L}\p{N}.+#-]*\s+){0,2})files?\b`;
/** `I updated 3 files`, `edited two files`, `created 2 new files`, `refactored 3 TypeScript files`. */
const COUNTED = new RegExp(String.raw`\b(${COUNT_VERB})\s+${COUNTED_FILES}`, 'giu');
/** `This change touches 4 files`, `The diff covers 3 files`: the change's own span. */
const SPANNED = new RegExp(
  String.raw`\b(?:(?:this|these|my|the)\s+(?:(?:change|changes|diff|patch|edit|edits|commit|pr|fix|refactor)\s+)?|(?:changes|edits)\s+)(${SPAN_VERB}|span)\s+${COUNTED_FILES}`,
  'giu',
);
/** `I updated src/a.ts and 2 other files`: the count after the files named, at least one more in all. */
const OTHER_FILES = new RegExp(
  String.raw`\b(${COUNT_VERB})\s+\S[^;]*?\s(?:and|plus|as\s+well\s+as)\s+(\d{1,4}|[a-z]+)\s+((?:other|more)\s+)files?\b`,
  'giu',
);
/**
 * A sentence that opens with the count, passive: `3 files changed.`, `Two files were updated:`,
 * `Total: 2 new files created`. Only at the sentence's start (after a bullet or a short lead-in
 * such as `In total,`): inside a sentence the files may be anyone's (`the 5 files changed by
 * the last commit`).
 */
const COUNTED_PASSIVE =
  /^\s*(?:[-*\u2022]\s*)?(?:(?:in\s+total|overall|total|summary|done|result|all\s+in\s+all)\s*[,:]\s*)?(\d{1,4}|[a-z]+)\s+((?:new|other|source|test|more)\s+)?files?\s+(?:were\s+|was\s+|have\s+been\s+|has\s+been\s+|got\s+|are\s+)?(updated|edited|changed|modified|touched|created|added|written|deleted|removed|refactored|fixed|renamed|moved|reworked|rewritten)\b/i;
/** A count as a label and its value: `Files changed: 3`, `Modified files: 3`, `New files = 2`. */
const COUNT_LABEL =
  /^\s*(?:[-*\u2022]\s*)?(?:\*\*)?(?:files?\s+(updated|edited|changed|modified|touched|created|added|deleted|removed)|(updated|edited|changed|modified|touched|created|new|added|deleted|removed)\s+files?)(?:\*\*)?\s*[:=]\s*(?:\*\*\s*)?(\d{1,4})\b/i;
/** Words before the verb that make the count no claim: negation, intent, condition, advice. */
const NOT_A_CLAIM =
  /\b(not|never|neither|nor|didn't|haven't|hasn't|wasn't|won't|will|would|should|could|can|may|might|must|need|needs|going|plan|if|to|you|please)\b/i;

/**
 * The kind of change a count counts: `created`, `new`, `added` (`I added 2 files`) or files
 * called new (`wrote 2 new test files`) the creates, `deleted`/`removed` the deletes, any other
 * verb every change.
 */
function countedKind(verb: string, words: string): 'created' | 'deleted' | 'changed' {
  const kind = verb.toLowerCase();
  if (kind === 'created' || kind === 'new' || kind === 'added' || /\bnew\b/i.test(words)) return 'created';
  return kind === 'deleted' || kind === 'removed' ? 'deleted' : 'changed';
}

function kindCount(
  kind: 'created' | 'deleted' | 'updated' | 'changed',
  changes: readonly FileChange[],
): number {
  return kind === 'changed' ? changes.length : changes.filter((row) => row.change === kind).length;
}

/**
 * Counted changes: a sentence of the reply that counts the files it changed (`I updated 3
 * files`, `edited two files`) against the changes report. `created`/`deleted` count rows of
 * that kind; other verbs count every changed file, or the updated ones only. Fenced code, questions and sentences led by
 * a negation or intent (`you could update 3 files`, `I did not edit two files`) are no claims.
 */
export function countedChangeFlags(text: string, changes: readonly FileChange[]): ChangeFlag[] {
  const prose = claimProse(text);
  const flags: ChangeFlag[] = [];
  for (const sentence of sentencesOf(prose)) {
    if (sentence.trim().endsWith('?')) continue;
    const passive = COUNTED_PASSIVE.exec(sentence);
    const label = COUNT_LABEL.exec(sentence);
    const claimed = (match: RegExpMatchArray) =>
      NOT_A_CLAIM.test(leadWords(sentence, match.index as number))
        ? []
        : [
            {
              verb: match[1] as string,
              count: match[2] as string,
              // `src/a.ts and 2 other files`: the files named besides are changed too.
              other: /\bother\b/i.test(match[3] ?? ''),
              words: match[3] ?? '',
              spelling: match[0],
            },
          ];
    const counts: { verb: string; count: string; other?: boolean; words?: string; spelling: string }[] = [
      ...[...sentence.matchAll(COUNTED)].flatMap(claimed),
      ...[...sentence.matchAll(SPANNED)].flatMap(claimed),
      ...[...sentence.matchAll(OTHER_FILES)].flatMap(claimed),
      // Its auxiliaries are the past ones only: "3 files were not changed" or "should be updated" never match.
      ...(passive
        ? [
            {
              verb: passive[3] as string,
              count: passive[1] as string,
              words: passive[2] ?? '',
              spelling: passive[0].trim(),
            },
          ]
        : []),
      ...(label
        ? [{ verb: (label[1] ?? label[2]) as string, count: label[3] as string, spelling: label[0].trim() }]
        : []),
    ];
    for (const match of counts) {
      const count = match.count.toLowerCase();
      const said = count === 'both' ? 2 : numberWordValue(count);
      if (said === undefined) continue;
      const what = countedKind(match.verb, match.words ?? '');
      const real = kindCount(what, changes);
      // "x and 2 other files" says at least one more than the count; exactly, when nothing else is named.
      if (match.other ? real >= said + 1 : real === said) continue;
      // "I created src/z.ts and edited 2 files": an edit verb may count the edited files only.
      if (what === 'changed' && !match.other && kindCount('updated', changes) === said) continue;
      flags.push({
        path: '',
        spelling: match.spelling,
        said: `count:${said}`,
        truth: `${real} file${real === 1 ? '' : 's'} ${what} this turn`,
        statement: sentence.trim(),
      });
    }
  }
  return flags;
}
