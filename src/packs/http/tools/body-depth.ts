import { ToolRejectedError } from '../../../core/errors.js';

/** Deeper than this a body is no API's payload: refused before it is sent. */
export const MAX_BODY_DEPTH = 200;

/**
 * Refuses a body nested deeper than MAX_BODY_DEPTH (measured without recursion): serializing,
 * redacting and recording it would overflow the stack, and the failure read as a lost
 * response ("the server may or may not have acted") though nothing was sent.
 */
export function refuseDeepBody(body: unknown): void {
  if (isTooDeep(body))
    throw new ToolRejectedError(
      'BODY_TOO_DEEP',
      `The request body is nested more than ${MAX_BODY_DEPTH} levels deep; nothing was sent. Send a flatter body.`,
      { limit: MAX_BODY_DEPTH },
    );
}

/** Whether `body` (objects and arrays alike) is nested more than MAX_BODY_DEPTH levels, measured without recursion. */
export function isTooDeep(body: unknown): boolean {
  const pending: [unknown, number][] = [[body, 0]];
  while (pending.length > 0) {
    const [value, depth] = pending.pop() as [unknown, number];
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) return true;
    for (const child of Object.values(value)) pending.push([child, depth + 1]);
  }
  return false;
}
