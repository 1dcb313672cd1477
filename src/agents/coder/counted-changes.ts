import { numberWordValue } from '../../core/number-words.js';
import type { ChangeFlag, FileChange } from './chat-record.js';
import { claimProse } from './claim-prose.js';
import { leadWords, sentencesOf } from './prose-sentences.js';

/** `I updated 3 files`, `edited two files`, `created 2 new files`: a verb, a count, `files`. */
const COUNTED =
  /\b(updated|edited|changed|modified|touched|created|added|wrote|deleted|removed)\s+(?:a\s+total\s+of\s+|exactly\s+|all\s+)?(\d{1,4}|[a-z]+)\s+(?:new\s+|more\s+|separate\s+|different\s+)?files?\b/gi;
/**
 * A sentence that opens with the count, passive: `3 files changed.`, `Two files were updated:`,
 * `Total: 2 new files created`. Only at the sentence's start (after a bullet or a short lead-in
 * such as `In total,`): inside a sentence the files may be anyone's (`the 5 files changed by
 * the last commit`).
 */
const COUNTED_PASSIVE =
  /^\s*(?:[-*\u2022]\s*)?(?:(?:in\s+total|overall|total|summary|done|result|all\s+in\s+all)\s*[,:]\s*)?(\d{1,4}|[a-z]+)\s+(?:new\s+)?files?\s+(?:were\s+|was\s+|have\s+been\s+|has\s+been\s+|got\s+|are\s+)?(updated|edited|changed|modified|touched|created|added|written|deleted|removed)\b/i;
/** Words before the verb that make the count no claim: negation, intent, condition, advice. */
const NOT_A_CLAIM =
  /\b(not|never|neither|nor|didn't|haven't|hasn't|wasn't|won't|will|would|should|could|can|may|might|must|need|needs|going|plan|if|to|you|please)\b/i;

function kindCount(verb: string, changes: readonly FileChange[]): number {
  const kind = verb.toLowerCase();
  if (kind === 'created') return changes.filter((row) => row.change === 'created').length;
  if (kind === 'deleted' || kind === 'removed')
    return changes.filter((row) => row.change === 'deleted').length;
  return changes.length;
}

/**
 * Counted changes: a sentence of the reply that counts the files it changed (`I updated 3
 * files`, `edited two files`) against the changes report. `created`/`deleted` count rows of
 * that kind; other verbs count every changed file. Fenced code, questions and sentences led by
 * a negation or intent (`you could update 3 files`, `I did not edit two files`) are no claims.
 */
export function countedChangeFlags(text: string, changes: readonly FileChange[]): ChangeFlag[] {
  const prose = claimProse(text);
  const flags: ChangeFlag[] = [];
  for (const sentence of sentencesOf(prose)) {
    if (sentence.trim().endsWith('?')) continue;
    const passive = COUNTED_PASSIVE.exec(sentence);
    const counts: { verb: string; count: string; spelling: string }[] = [
      ...[...sentence.matchAll(COUNTED)].flatMap((match) =>
        NOT_A_CLAIM.test(leadWords(sentence, match.index))
          ? []
          : [{ verb: match[1] as string, count: match[2] as string, spelling: match[0] }],
      ),
      // Its auxiliaries are the past ones only: "3 files were not changed" or "should be updated" never match.
      ...(passive
        ? [{ verb: passive[2] as string, count: passive[1] as string, spelling: passive[0].trim() }]
        : []),
    ];
    for (const match of counts) {
      const said = numberWordValue(match.count.toLowerCase());
      if (said === undefined) continue;
      const verb = match.verb.toLowerCase();
      const real = kindCount(verb, changes);
      if (real === said) continue;
      const what =
        verb === 'created' ? 'created' : verb === 'deleted' || verb === 'removed' ? 'deleted' : 'changed';
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
