import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function encodeTime(ms: number, length: number): string {
  let out = '';
  let rest = ms;
  for (let index = 0; index < length; index++) {
    out = CROCKFORD[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

function encodeRandom(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += CROCKFORD[byte % 32];
  return out;
}

/** A run id that sorts by creation time (ULID layout: 10 time chars + 16 random chars). */
export function newRunId(now: number = Date.now()): string {
  return `run_${encodeTime(now, 10)}${encodeRandom(16)}`;
}
