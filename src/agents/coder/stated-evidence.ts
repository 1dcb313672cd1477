import type { ChangeFlag } from './chat-record.js';
import { canonicalOf, type TurnFacts } from './flag-false-statements.js';
import { fileSpellings } from './mentioned-changes.js';
import { sentencesOf, withoutCodeBlocks } from './prose-sentences.js';

const SHA = /\bsha-?256\b[\s:=`*(]*(?:is\s+|of\s+)?`?([0-9a-f]{8,64})\b/gi;
const BYTES = /\b(\d{1,12}(?:,\d{3})*)\s*(?:bytes?\b|B\b)/g;

/**
 * Fabricated evidence: a sentence (or table row) that names exactly one file and states its
 * sha256 (any prefix of 8+ hex digits) or its size in bytes, when the ledger's evidence for
 * that file after the turn says otherwise. A file the turn has no evidence for is not judged
 * here (the change and read checks speak to it).
 */
export async function statedEvidenceFlags(text: string, facts: TurnFacts): Promise<ChangeFlag[]> {
  const prose = withoutCodeBlocks(text);
  const flags: ChangeFlag[] = [];
  for (const sentence of sentencesOf(prose)) {
    const shas = [...sentence.matchAll(SHA)];
    const sizes = [...sentence.matchAll(BYTES)];
    if (shas.length === 0 && sizes.length === 0) continue;
    const spellings = [...new Set(fileSpellings(sentence))];
    if (spellings.length !== 1) continue;
    const spelling = spellings[0] as string;
    const resolved = await canonicalOf(spelling, facts);
    if ('outside' in resolved) continue;
    const last = facts.histories.get(resolved.canonical)?.last;
    if (!last?.exists) continue;
    for (const sha of shas) {
      const stated = (sha[1] as string).toLowerCase();
      if (!last.sha256 || last.sha256.startsWith(stated) || stated.startsWith(last.sha256)) continue;
      flags.push({
        path: resolved.canonical,
        spelling,
        said: `sha256:${stated}`,
        truth: `sha256 ${last.sha256.slice(0, 12)}…`,
        statement: sentence.trim(),
      });
    }
    for (const size of sizes) {
      const stated = Number((size[1] as string).replaceAll(',', ''));
      if (last.bytes === undefined || last.bytes === stated) continue;
      flags.push({
        path: resolved.canonical,
        spelling,
        said: `bytes:${stated}`,
        truth: `${last.bytes} bytes`,
        statement: sentence.trim(),
      });
    }
  }
  return flags;
}
