import type { ChangeFlag } from './chat-record.js';

/**
 * Statements that a check ran or passed — tests, a build, lint, a type check — read from a
 * Coder text. The Coder's tools read and write files (and read a page's console): none runs a
 * command, so "All tests pass" or "I ran the build" is never backed by a turn's ledger. A
 * hedged, negated, conditional or imperative sentence ("should pass", "I did not run the
 * tests", "run npm test to check") states nothing and is left alone, as is anything inside a
 * code block (output the user is shown to expect). A denial, intent or condition holds its own
 * clause (and a condition the clause after it), not the whole sentence: in "I ran the tests, so
 * you can merge" the advice's "can" does not unsay the run.
 */

const CHECK =
  '(?:tests?|test suites?|test runs?|specs?|builds?|compilation|type ?-?checks?|typecheck(?:ing)?|tsc|lint(?:er|ing)?|CI|checks)';
// The check's words may be preceded by its kind: "all unit tests", "the whole test suite".
const KIND = String.raw`(?:(?:all|the|every|each|whole|full|entire|existing|new|unit|integration|e2e|end-to-end|other|remaining|\d+|of the)\s+)*`;
// "pass" only where the clause ends, or goes on as a verdict does: "the tests pass an object
// to the handler" describes code, "all tests pass." or "tests pass now" reports a run.
const PASS_END = String.raw`(?=\s*(?:[.,;:!)\]]|$|\n|—|–|-\s|\((?!\w+\))|\s(?:now|again|locally|successfully|cleanly|green|as expected|and\s+(?:the|lint|tsc|build|type)|on\s|in\s+CI\b|after\b|with\s+(?:no|zero|\d))))`;

const STATEMENTS = [
  // "All tests pass", "the build succeeds", "tests are passing", "lint is clean", "CI is green".
  new RegExp(
    String.raw`\b${KIND}${CHECK}\s+(?:now\s+|still\s+|all\s+|both\s+)?(?:(?:pass(?:es|ed)?|succeed(?:s|ed)?)${PASS_END}|(?:is|are|were|was)\s+(?:now\s+|all\s+)?(?:passing|green|successful)\b|(?:ran|run|completed?)\s+(?:successfully|cleanly|green|without\s+(?:errors|failures))\b)`,
    'i',
  ),
  // "I ran the tests", "I've run npm test", "I executed the test suite".
  new RegExp(
    String.raw`\bI\s*(?:have\s+|'ve\s+|also\s+|then\s+|just\s+)*(?:ran|run|re-?ran|re-?run|executed|invoked)\b(?!\s+(?:into|out|across|over)\b)[^.!?\n]{0,40}?\b(?:${CHECK}|npm\s+(?:test|run)|npx\s+\w+|pnpm|yarn|pytest|jest|vitest|mocha|cargo\s+test|go\s+test|make)\b`,
    'i',
  ),
  // "Lint is clean", "no lint errors", "tsc reports no errors".
  /\blint(?:er|ing)?\s+(?:is|was|comes back)\s+clean\b|\b(?:no|zero|0)\s+(?:lint|type|tsc|compiler?|build)\s+errors\b|\b(?:tsc|the compiler|the linter)\s+(?:reports|shows|gives)\s+(?:no|zero|0)\s+(?:errors|problems)\b/i,
  // "It compiles cleanly", "the project builds successfully", "compiles without errors".
  /\b(?:compiles|builds|type-?checks)\s+(?:cleanly|successfully|fine|without\s+(?:errors|warnings|issues))\b/i,
  // "Verified by running the tests", "confirmed with npm test".
  new RegExp(
    String.raw`\b(?:verified|confirmed|checked|tested)\s+(?:it\s+|this\s+|that\s+)?(?:by\s+running|with|using|via)\s+(?:the\s+)?(?:${CHECK}|npm\s+(?:test|run)|pytest|jest|vitest)\b`,
    'i',
  ),
];

// A sentence that hedges or asks states no run, whichever clause the word is in ("All tests
// pass, I think").
const HEDGED_SENTENCE =
  /\b(?:hopefully|probably|likely|presumably|I think|I believe|I guess|I assume|expect(?:ed|s)?|untested|unverified|without running|did you|do you)\b|\?\s*$/i;
// A clause that denies, intends, conditions or instructs states no run; another clause of the
// sentence still can: "All tests pass, so you can merge" reports one ("can" is the advice's).
const NOT_A_REPORT =
  /\b(?:should|shall|will|would|may|might|could|can|cannot|can't|won't|once|if|unless|when you|make sure|ensure|please|let me|I'll|to (?:check|verify|confirm|see|make sure|ensure)|not|no longer|never|n't|unable|try|next step)\b/i;
const IMPERATIVE =
  /^\s*(?:[-*\u2022]\s*)?(?:run|try|then run|now run|execute|check|verify|confirm|please)\b/i;
// A condition opening a clause holds the clause after it too: "If the build succeeds, the tests pass."
const CONDITION = /^\s*(?:if|unless|once|when|whenever|assuming|provided|after you|before you)\b/i;
// Clauses: at a comma, semicolon, colon, dash or bracket, and before `but`/`so`.
const CLAUSE_BREAK = /[,;:\u2013\u2014()]|\s-\s|\s(?=(?:but|so)\s)/;

/** Whether a clause of a sentence (its clauses in order) reports a check run. */
function reportingClause(clauses: readonly string[]): boolean {
  return clauses.some(
    (clause, index) =>
      !NOT_A_REPORT.test(clause) &&
      !IMPERATIVE.test(clause) &&
      !(index > 0 && CONDITION.test(clauses[index - 1] as string)) &&
      STATEMENTS.some((pattern) => pattern.test(clause)),
  );
}

/** The sentences of a text outside code blocks and inline code. */
function sentencesOf(text: string): string[] {
  const prose = text
    .replace(/```[\s\S]*?(?:```|$)/g, '\n')
    .replace(/`[^`\n]*`/g, (code) => code.replace(/[.!?]/g, ' '));
  return prose
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}

/** Sentences of `text` that report a test, build or lint run, as said (each once). */
export function reportedChecks(text: string): string[] {
  const found: string[] = [];
  for (const sentence of sentencesOf(text)) {
    if (HEDGED_SENTENCE.test(sentence) || IMPERATIVE.test(sentence)) continue;
    if (reportingClause(sentence.split(CLAUSE_BREAK)) && !found.includes(sentence)) found.push(sentence);
  }
  return found;
}

const STATEMENT_CHARS = 120;

/** What the ledger of a Coder turn shows about any check: none ran. */
export const NO_CHECK_RAN =
  "this turn ran no test, build or lint: the Coder's tools only read and write files";

/** Flags for the checks a text reports, which no Coder turn can have run. */
export function unrunCheckFlags(text: string, source?: ChangeFlag['source']): ChangeFlag[] {
  return reportedChecks(text).map((sentence) => {
    const statement =
      sentence.length > STATEMENT_CHARS ? `${sentence.slice(0, STATEMENT_CHARS - 1)}…` : sentence;
    return {
      path: '',
      spelling: statement,
      said: 'run',
      truth: NO_CHECK_RAN,
      statement,
      ...(source ? { source } : {}),
    };
  });
}
