import type { LanguageModelV3 } from '@ai-sdk/provider';
import { generateText } from 'ai';
import { z } from 'zod';

export interface StatedDecision {
  /** The decision in a few words, e.g. "Use Postgres". */
  title: string;
  /** The sentence it was read from. */
  quote: string;
  by: 'rule' | 'model';
}

const CLAUSE = String.raw`([^.!?\n]{2,120})`;

/**
 * Explicit wordings, read from the user's message (the developer decides): "let's use X",
 * "we decided to X", "decision: X", "we'll go with X". A reply counts only with an explicit
 * "Decision:" line, so a model's suggestion is never recorded as the team's decision.
 */
const USER_RULES: { pattern: RegExp; title: (match: RegExpExecArray) => string }[] = [
  {
    pattern: new RegExp(
      String.raw`\b(?:let'?s|let us)\s+(use|go with|switch to|adopt|stick with|keep|move to)\s+${CLAUSE}`,
      'gi',
    ),
    title: (match) => `${verb(match[1] as string)} ${match[2]}`,
  },
  {
    pattern: new RegExp(
      String.raw`\bwe(?:'ve| have)?\s+(?:decided|agreed)\s+(?:to|on|that)\s+${CLAUSE}`,
      'gi',
    ),
    title: (match) => capitalize(match[1] as string),
  },
  {
    pattern: new RegExp(
      String.raw`\bwe(?:'ll| will| are going to)\s+(use|go with|switch to|adopt)\s+${CLAUSE}`,
      'gi',
    ),
    title: (match) => `${verb(match[1] as string)} ${match[2]}`,
  },
];
const DECISION_LINE = new RegExp(
  String.raw`(?:^|[.!?]\s+)\s*(?:\*\*)?decision(?:\*\*)?\s*:\s*(?:\*\*)?\s*${CLAUSE}`,
  'gim',
);

/** Words that suggest a decision the rules could not read; only then is the model asked. */
const HINT = /\b(decid|decision|agree|go with|going with|choose|chose|settle|prefer|instead of|switch)/i;

const verb = (word: string) => capitalize(word.toLowerCase());
const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const tidy = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .replace(/[\s,;:]+$/, '')
    .trim();

/** The decisions stated in so many words. Deterministic; the same text always gives the same list. */
export function decisionsByRule(user: string, reply: string): StatedDecision[] {
  const found: StatedDecision[] = [];
  for (const rule of USER_RULES)
    for (const match of user.matchAll(rule.pattern))
      found.push({ title: tidy(rule.title(match as RegExpExecArray)), quote: tidy(match[0]), by: 'rule' });
  for (const text of [user, reply])
    for (const match of text.matchAll(DECISION_LINE))
      found.push({
        title: tidy(capitalize(match[1] as string)),
        quote: tidy(match[0].replace(/^[.!?]\s*/, '')),
        by: 'rule',
      });
  const seen = new Set<string>();
  return found.filter((decision) => {
    const key = decision.title.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Whether the user's message may state a decision the rules did not read. */
export function mayStateDecision(user: string): boolean {
  return HINT.test(user);
}

const modelAnswer = z.object({
  decisions: z.array(z.object({ title: z.string().min(2).max(120), quote: z.string().max(400) })).max(5),
});

/**
 * The model's reading, for wordings the rules do not know. One call, no tools; the answer
 * must be JSON of the expected shape or it is an error (the caller fails open).
 */
export async function decisionsByModel(
  model: LanguageModelV3,
  user: string,
  signal?: AbortSignal,
): Promise<StatedDecision[]> {
  const { text } = await generateText({
    model,
    maxRetries: 0,
    ...(signal ? { abortSignal: signal } : {}),
    system:
      'You read one chat message from a developer and list the technical decisions it states as made (not options, not questions). Answer with JSON only: {"decisions":[{"title":"Use Postgres for storage","quote":"the words it was stated in"}]}. No decision: {"decisions":[]}.',
    prompt: user,
  });
  const json = text.replace(/^```(?:json)?\s*|\s*```$/g, '');
  const parsed = modelAnswer.parse(JSON.parse(json));
  return parsed.decisions.map((decision) => ({
    title: tidy(decision.title),
    quote: tidy(decision.quote),
    by: 'model' as const,
  }));
}
