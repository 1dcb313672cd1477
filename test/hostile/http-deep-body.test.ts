import { describe, expect, it } from 'vitest';
import { freshenExample } from '../../src/packs/http/endpoints/freshen-example.js';
import { MAX_BODY_DEPTH, refuseDeepBody } from '../../src/packs/http/tools/body-depth.js';

/** `{ title, next: { next: … } }`, `depth` objects deep, built without recursion. */
function nested(depth: number): Record<string, unknown> {
  const top: Record<string, unknown> = { title: 'Checkout', email: 'qa@example.test' };
  let at = top;
  for (let level = 1; level < depth; level++) {
    const next: Record<string, unknown> = {};
    at.next = next;
    at = next;
  }
  return top;
}

describe('a captured body nested thousands deep', () => {
  it('is freshened without cloning it whole (structuredClone overflowed the stack and aborted the run)', () => {
    const body = nested(5000);
    const fresh = freshenExample(body, 'Suite 1 · abc123', { run: 'abc123', serial: 1 });
    expect(fresh.title).toBe('Suite 1 · abc123');
    expect(fresh.email).not.toBe('qa@example.test');
    // The captured example is left as it was.
    expect(body.title).toBe('Checkout');
  });

  it('is refused before sending, as a rejected call, at the limit and not below it', () => {
    expect(() => refuseDeepBody(nested(MAX_BODY_DEPTH))).not.toThrow();
    expect(() => refuseDeepBody(nested(MAX_BODY_DEPTH + 1))).toThrow(
      /nested more than 200 levels deep; nothing was sent/,
    );
    expect(() => refuseDeepBody(nested(5000))).toThrow(/nothing was sent/);
  });
});
