export interface DigestSettings {
  /** How many digests a read replays. */
  keep: number;
  /** Digests older than this many days are reaped. */
  ttlDays: number;
  /** Loud notes about settings that fell back to defaults. */
  warnings: string[];
}

export const DEFAULT_KEEP = 3;
export const DEFAULT_TTL_DAYS = 2;

function numberSetting(name: string, raw: string | undefined, fallback: number, warnings: string[]): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    warnings.push(`${name}="${raw}" is not a positive number; using the default ${fallback}.`);
    return fallback;
  }
  return value;
}

/** TALLY_DIGEST_KEEP and TALLY_DIGEST_TTL_DAYS; anything non-numeric falls back, loudly. */
export function digestSettings(env: NodeJS.ProcessEnv = process.env): DigestSettings {
  const warnings: string[] = [];
  const keep = Math.floor(numberSetting('TALLY_DIGEST_KEEP', env.TALLY_DIGEST_KEEP, DEFAULT_KEEP, warnings));
  const ttlDays = numberSetting(
    'TALLY_DIGEST_TTL_DAYS',
    env.TALLY_DIGEST_TTL_DAYS,
    DEFAULT_TTL_DAYS,
    warnings,
  );
  return { keep, ttlDays, warnings };
}
