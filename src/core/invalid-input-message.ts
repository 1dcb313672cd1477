import { z } from 'zod';

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * The INVALID_INPUT message: zod's account of each problem, plus the one case it cannot
 * explain. JSON has no NaN, so a client that reads a word ("two") as a number sends `null`:
 * "received null" alone would blame a value the caller never typed.
 */
export function invalidInputMessage(toolName: string, error: z.ZodError, input: unknown): string {
  const hints = error.issues
    .filter(
      (issue) =>
        issue.code === 'invalid_type' &&
        (issue.expected === 'number' || issue.expected === 'int') &&
        valueAt(input, issue.path) === null,
    )
    .map(
      (issue) =>
        ` ${issue.path.join('.') || 'The input'} arrived as null: if you gave a value that is not a number (such as "two"), your client turned it into NaN, which JSON sends as null. Pass a number, such as 2.`,
    );
  return `Invalid input for ${toolName}: ${z.prettifyError(error)}.${hints.join('')} Call it again with arguments that match its schema.`;
}
