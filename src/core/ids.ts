import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function encodeTime(ms: number): string {
  let out = '';
  let rest = ms;
  for (let index = 0; index < 10; index++) {
    out = CROCKFORD[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

function randomDigits(): number[] {
  return [...randomBytes(16)].map((byte) => byte % 32);
}

/** Adds one to a base-32 number held as digits (the ULID monotonic rule). */
function increment(digits: number[]): number[] {
  const out = [...digits];
  for (let index = out.length - 1; index >= 0; index--) {
    if ((out[index] as number) < 31) {
      out[index] = (out[index] as number) + 1;
      return out;
    }
    out[index] = 0;
  }
  return randomDigits();
}

/**
 * Run ids that sort by creation time (ULID layout: 10 time chars + 16 random chars). Ids made
 * by one generator in the same millisecond still sort in creation order.
 */
export function createRunIdGenerator(clock: () => number = Date.now): () => string {
  let lastTime = -1;
  let lastRandom: number[] = [];
  return () => {
    const now = clock();
    lastRandom = now === lastTime ? increment(lastRandom) : randomDigits();
    lastTime = Math.max(now, lastTime);
    return `run_${encodeTime(lastTime)}${lastRandom.map((digit) => CROCKFORD[digit]).join('')}`;
  };
}
