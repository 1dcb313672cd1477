import type { ChangeFlag } from './chat-record.js';
import { straightApostrophes } from './claim-prose.js';
import { FOREIGN_CONTRAST } from './prose-sentences.js';

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
// A check mark, as a verdict.
const MARK = String.raw`[\u2705\u2713\u2714\u2611]\uFE0F?`;
// "pass" only where the clause ends, or goes on as a verdict does: "the tests pass an object
// to the handler" describes code, "all tests pass." or "tests pass now" reports a run. A check
// mark or an emoji (its high surrogate: 🎉 🚀) ends it too: "All tests pass ✅".
const PASS_END = String.raw`(?=\s*(?:[.,;:!)\]]|$|\n|${MARK}|[\uD83C-\uD83E]|—|–|-\s|\((?!\w+\))|\s(?:now|again|locally|successfully|cleanly|green|as expected|and\s+(?:the|lint|tsc|build|type)|on\s|in\s+CI\b|after\b|with\s+(?:no|zero|\d))))`;

// Check commands named as such: "npm test passes", "Ran vitest", "ESLint reports no problems".
const TOOL = String.raw`(?:npm\s+(?:test|run\s+[\w:-]+)|npx\s+[\w@/-]+|pnpm\s+\w+|yarn\s+\w+|vitest|jest|pytest|mocha|tsc|eslint|biome|ruff|mypy|clippy|cargo\s+(?:test|build|clippy)|go\s+(?:test|vet|build)|make(?:\s+\w+)?)`;
// A one-word verdict after a check's label.
const VERDICT = String.raw`(?:pass(?:ed|es|ing)?|green|ok(?:ay)?|clean|success(?:ful)?|succeeded|fine)\b`;

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
  // "The code compiles.", "It compiles now ✅": bare, where the clause ends (not "it compiles the regex").
  new RegExp(
    String.raw`\b(?:it|everything|(?:the\s+)?(?:code|project|app|package|crate|library))\s+(?:now\s+|still\s+|all\s+)?(?:compiles|builds|type-?checks)${PASS_END}`,
    'i',
  ),
  // "Verified by running the tests", "confirmed with npm test".
  new RegExp(
    String.raw`\b(?:verified|confirmed|checked|tested)\s+(?:it\s+|this\s+|that\s+)?(?:by\s+running|with|using|via)\s+(?:the\s+)?(?:${CHECK}|npm\s+(?:test|run)|pytest|jest|vitest)\b`,
    'i',
  ),
  // "12/12 tests passing", "42 passing", "All unit tests: 10 passed" (not "3 passing tests were added").
  new RegExp(
    String.raw`\b\d+\s*(?:\/\s*\d+\s*)?(?:${KIND})?(?:tests?\s+|specs?\s+|checks?\s+|suites?\s+)?(?:passed|passing)\b(?!\s+(?:tests?|specs?|checks?)\b)`,
    'i',
  ),
  // "There are no failing tests", "zero test failures", "0 failures".
  /\b(?:no|zero|0)\s+(?:(?:failing|failed|broken)\s+(?:tests?|specs?|checks?)|(?:test\s+|spec\s+)?failures)\b/i,
  // "The typecheck is clean", "tsc is happy", "lint was fine".
  new RegExp(
    String.raw`\b${CHECK}\s+(?:is|are|was|were)\s+(?:now\s+|all\s+)?(?:clean|happy|fine|ok(?:ay)?)\b`,
    'i',
  ),
  // "ESLint reports no problems", "mypy found 0 errors".
  new RegExp(
    String.raw`\b${TOOL}\s+(?:reports|reported|shows|showed|gives|gave|finds|found)\s+(?:no|zero|0)\s+(?:errors|problems|issues|warnings|failures)\b`,
    'i',
  ),
  // "Tests were run and pass", "the build has been run".
  new RegExp(String.raw`\b${CHECK}\s+(?:were|was|have\s+been|has\s+been)\s+(?:re-?)?run\b`, 'i'),
  // A run with no subject, opening its clause: "Ran the tests", "Re-ran npm test".
  new RegExp(
    String.raw`^\s*(?:[-*\u2022]\s*)?(?:also\s+|then\s+|and\s+)?(?:ran|re-?ran|executed)\s+(?:the\s+|all\s+|both\s+|full\s+|whole\s+|entire\s+)*(?:${CHECK}|${TOOL})`,
    'i',
  ),
  // "Tested locally", "I tested it and it works" (a page tried in the browser, which the Coder's
  // console tool can back, is left to that tool's evidence).
  /^\s*(?:[-*\u2022]\s*)?(?:I\s+(?:have\s+|'ve\s+|also\s+)*)?tested\s+(?:it|this|that|everything|the\s+(?:change|changes|fix|feature|code)|locally|manually|end[- ]to[- ]end|thoroughly)\b(?![^.!?\n]*\b(?:browser|page|console)\b)/i,
  // The same reports in French, Spanish, Portuguese, Italian and German ("Tous les tests passent").
  /\btests?\s+(?:passent|r\u00e9ussissent)\b|\b(?:tests|pruebas)\s+(?:pasan|pasaron)\b|\btestes\s+(?:passam|passaram)\b|\btest\s+(?:passano|sono\s+superati)\b|\bTests\s+(?:bestehen|sind\s+gr\u00fcn|laufen\s+durch)\b/iu,
];

/**
 * A check spelled as its label and verdict, read before the sentence is cut at its colon:
 * "Tests: 12 passed", "Build: \u2705", "vitest \u2192 all green", "\u2705 Build", "Tests \u2713", and a
 * JUnit-style tally ("Tests run: 12, Failures: 0").
 */
const LABELLED_VERDICT = new RegExp(
  String.raw`^\s*(?:[-*\u2022]\s*)?(?:(?:${MARK})\s*)?(?:the\s+|all\s+)*(?:${CHECK}|${TOOL})\s*(?:(?:[:=]|\u2192|->|\u2014|\u2013|\s-)\s*(?:${MARK}|${VERDICT}|\d+\s*(?:\/\s*\d+\s*)?(?:tests?\s+|specs?\s+)?(?:passed|passing|pass|ok)\b|all\s+(?:pass(?:ed|ing)?|green)\b|(?:0|no|zero)\s+(?:failures?|failed|errors?|problems?)\b)|\s*(?:${MARK}))|^\s*(?:[-*\u2022]\s*)?(?:${MARK})\s*(?:the\s+|all\s+)*(?:${CHECK}|${TOOL})\s*[.!]?\s*$|^\s*(?:[-*\u2022]\s*)?tests?\s+run\s*:\s*\d+`,
  'iu',
);

// A sentence that hedges or asks states no run, whichever clause the word is in ("All tests
// pass, I think").
const HEDGED_SENTENCE =
  /\b(?:hopefully|probably|likely|presumably|I think|I believe|I guess|I assume|expect(?:ed|s)?|untested|unverified|without running|did you|do you)\b|\?\s*$/i;
// A clause that denies, intends, conditions or instructs states no run; another clause of the
// sentence still can: "All tests pass, so you can merge" reports one ("can" is the advice's).
const NOT_A_REPORT =
  /\b(?:should|shall|will|would|may|might|could|can|cannot|can't|won't|once|if|unless|when you|make sure|ensure|please|let me|I'll|to (?:check|verify|confirm|see|make sure|ensure)|not|no longer|never|\w*n['\u2019]t|whether|unable|try|next step|nicht|kein|pas|jamais|non|n\u00e3o|nunca)\b/iu;
// "No tests were run", "none of the checks ran": a denial spelled with "no" (which alone, as in
// "no failing tests", is a verdict).
const NO_RUN =
  /\b(?:no|none\s+of\s+the|zero)\s+(?:\w+\s+)?(?:tests?|checks?|builds?|specs?|suites?)\s+(?:were|was|have|has|had|ran|run|got)\b/i;
const IMPERATIVE =
  /^\s*(?:[-*\u2022]\s*)?(?:run|try|then run|now run|execute|check|verify|confirm|please)\b/i;
// A condition opening a clause holds the clause after it too: "If the build succeeds, the tests pass."
const CONDITION = /^\s*(?:if|unless|once|when|whenever|assuming|provided|after you|before you)\b/i;
// Clauses: at a comma, semicolon, colon, dash or bracket, before `but`/`so` (`mais`, `aber` …), before a run
// coordinated in the past ("I didn't change x and ran the tests": `didn't` takes `run`, so
// `ran` is a new, affirmative clause), and before a check that is a new subject ("… and all
// tests pass").
const CLAUSE_BREAK = new RegExp(
  String.raw`[,;:\u2013\u2014()]|\s-\s|\s(?=(?:but|so|${FOREIGN_CONTRAST})\s)|\s(?=(?:and\s+)?(?:then\s+)?(?:ran|re-?ran|executed)\s)|\s(?=and\s+${KIND}${CHECK}\b)`,
  'iu',
);
// A clause before such an `and` that says what is known or claimed ("I can't confirm the tests
// pass and the build succeeds") governs the clause after it too.
const CLAUSAL_VERB =
  /\b(?:confirm|say|said|know|knew|guarantee|promise|verify|claim|tell|sure|think|believe|ensure|whether|check(?:ed)?\s+(?:that|if))\b/i;

/** Whether a clause of a sentence (its clauses in order) reports a check run. */
function reportingClause(clauses: readonly string[]): boolean {
  return clauses.some(
    (clause, index) =>
      !NOT_A_REPORT.test(clause) &&
      !NO_RUN.test(clause) &&
      !IMPERATIVE.test(clause) &&
      !(index > 0 && CONDITION.test(clauses[index - 1] as string)) &&
      !(index > 0 && /^\s*and\b/i.test(clause) && CLAUSAL_VERB.test(clauses[index - 1] as string)) &&
      STATEMENTS.some((pattern) => pattern.test(clause)),
  );
}

/** The sentences of a text outside code blocks and inline code. */
function sentencesOf(text: string): string[] {
  // Curly apostrophes as straight ones: "didn’t" is the denial "didn't".
  const prose = straightApostrophes(text)
    .replace(/```[\s\S]*?(?:```|$)/g, '\n')
    // Inline code is read as its words ("`npm test` passes"), its stops no sentence end.
    .replace(/`([^`\n]*)`/g, (_code, inner: string) => inner.replace(/[.!?]/g, ' '));
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
    const labelled = LABELLED_VERDICT.test(sentence) && !NOT_A_REPORT.test(sentence);
    if ((labelled || reportingClause(sentence.split(CLAUSE_BREAK))) && !found.includes(sentence))
      found.push(sentence);
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
