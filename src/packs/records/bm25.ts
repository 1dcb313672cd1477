/** Lower-cased word tokens, diacritics removed. */
export function tokenize(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

export interface Bm25Document {
  key: string;
  /** Field texts with their weights. */
  fields: { text: string; weight: number }[];
}

/**
 * A small BM25 (k1 1.2, b 0.75) over weighted fields: the baseline the on-disk index is
 * measured against, and the fallback when no index can be written.
 */
export function rankBm25(documents: Bm25Document[], query: string): { key: string; score: number }[] {
  const terms = [...new Set(tokenize(query))];
  if (terms.length === 0) return [];
  const k1 = 1.2;
  const b = 0.75;
  const docs = documents.map((document) => {
    const counts = new Map<string, number>();
    let length = 0;
    for (const field of document.fields) {
      for (const token of tokenize(field.text)) {
        counts.set(token, (counts.get(token) ?? 0) + field.weight);
        length += 1;
      }
    }
    return { key: document.key, counts, length };
  });
  const average = docs.reduce((sum, doc) => sum + doc.length, 0) / Math.max(docs.length, 1) || 1;
  const documentFrequency = new Map(
    terms.map((term) => [term, docs.filter((doc) => doc.counts.has(term)).length]),
  );
  const scored: { key: string; score: number }[] = [];
  for (const doc of docs) {
    let score = 0;
    for (const term of terms) {
      const frequency = doc.counts.get(term);
      if (!frequency) continue;
      const df = documentFrequency.get(term) as number;
      const idf = Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
      score += idf * ((frequency * (k1 + 1)) / (frequency + k1 * (1 - b + (b * doc.length) / average)));
    }
    if (score > 0) scored.push({ key: doc.key, score });
  }
  return scored.sort((a, c) => c.score - a.score || a.key.localeCompare(c.key));
}
