import { numberWordValue } from '../../core/number-words.js';
import type { ChangeFlag, FileChange } from './chat-record.js';
import { leadWords, sentencesOf, withoutCodeBlocks } from './prose-sentences.js';

/** `I updated 3 files`, `edited two files`, `created 2 new files`: a verb, a count, `files`. */
const COUNTED =
  /\b(updated|edited|changed|modified|touched|created|added|wrote|deleted|removed)\s+(?:a\s+total\s+of\s+|exactly\s+|all\s+)?(\d{1,4}|[a-z]+)\s+(?:new\s+|more\s+|separate\s+|different\s+)?files?\b/gi;
/** Words before the verb that make the count no claim: negation, intent, condition, advice. */
const NOT_A_CLAIM =
  /\b(not|never|didn't|haven't|hasn't|wasn't|won't|will|would|should|could|can|may|might|must|need|needs|going|plan|if|to|you|please)\b/i;

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
  const prose = withoutCodeBlocks(text);
  const flags: ChangeFlag[] = [];
  for (const sentence of sentencesOf(prose)) {
    if (sentence.trim().endsWith('?')) continue;
    for (const match of sentence.matchAll(COUNTED)) {
      const said = numberWordValue((match[2] as string).toLowerCase());
      if (said === undefined) continue;
      const lead = leadWords(sentence, match.index);
      if (NOT_A_CLAIM.test(lead)) continue;
      const verb = (match[1] as string).toLowerCase();
      const real = kindCount(verb, changes);
      if (real === said) continue;
      const what =
        verb === 'created' ? 'created' : verb === 'deleted' || verb === 'removed' ? 'deleted' : 'changed';
      flags.push({
        path: '',
        spelling: match[0],
        said: `count:${said}`,
        truth: `${real} file${real === 1 ? '' : 's'} ${what} this turn`,
        statement: sentence.trim(),
      });
    }
  }
  return flags;
}
