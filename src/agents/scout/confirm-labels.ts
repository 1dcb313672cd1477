import type { VerifiedItem } from '../../core/agent/ending.js';

/**
 * What found each record in a scout run, as the system saw the searches' results: `recall`, or
 * the query that returned it (`keyword: release`, `kind: procedure`). The scout's report labels
 * every governing record with what found it; a model's label is held to this.
 */
export class FoundBy {
  private readonly labels = new Map<string, string[]>();

  /** A search `label` returned `paths`. */
  add(label: string, paths: Iterable<string>): void {
    for (const path of paths) {
      const known = this.labels.get(path) ?? [];
      if (!known.includes(label)) this.labels.set(path, [...known, label]);
    }
  }

  of(path: string): readonly string[] {
    return this.labels.get(path) ?? [];
  }
}

/** The label a records_query call earns: its keyword, else its filters as written. */
export function queryLabel(input: Record<string, unknown>): string {
  if (typeof input.keyword === 'string' && input.keyword.trim() !== '')
    return `keyword: ${input.keyword.trim()}`;
  const filters = ['kind', 'id', 'linksTo', 'project']
    .filter((key) => typeof input[key] === 'string')
    .map((key) => `${key}: ${String(input[key])}`);
  return filters.length > 0 ? filters.join(', ') : 'query';
}

const spelled = (label: string) => label.trim().replace(/\s+/g, ' ').toLowerCase();
const isRecall = (label: string) => /^\s*recall\b/i.test(label);
const isQuery = (label: string) => /^\s*(keyword|query|kind|id|links?(to)?|project)\b/i.test(label);

/**
 * A governing record's label, held to what found it: when a search of the kind the model names
 * returned the record (`recall` by records_recall, `keyword: …` by a records_query), the label
 * is that search's own (`keyword: release`), never the model's text, which could carry anything
 * into the report (a line break and a GOVERNS line of its own). Otherwise it is what did find
 * the record, the model's words kept as `modelLabel` for the report to say so. A label naming
 * no search ("the obvious one") is replaced the same way.
 */
export function confirmLabel(item: VerifiedItem, found: FoundBy): VerifiedItem {
  const said = String(item.label ?? '');
  const by = found.of(item.target);
  const kind = isRecall(said) ? isRecall : isQuery(said) ? (label: string) => !isRecall(label) : undefined;
  // The search the model names, where one said just that; else the first of its kind.
  const backing =
    kind && (by.find((label) => kind(label) && spelled(label) === spelled(said)) ?? by.find(kind));
  if (backing !== undefined) return { ...item, label: backing };
  return { ...item, label: by[0] ?? NOT_SEARCHED, modelLabel: said };
}

/** The label of a record read though no search of the run returned it. */
export const NOT_SEARCHED = 'read; no search of this run returned it';

/** How much of a wrong label the report quotes: a model may write pages there. */
const SHOWN_LABEL_CHARS = 80;

/** The report's line for a label the model got wrong, or undefined. */
export function correctedLabelNote(item: VerifiedItem): string | undefined {
  if (typeof item.modelLabel !== 'string') return undefined;
  // One line, and short: the model's text is quoted, not trusted.
  const flat = item.modelLabel.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ');
  const said = flat.length > SHOWN_LABEL_CHARS ? `${flat.slice(0, SHOWN_LABEL_CHARS - 1)}…` : flat;
  return `label of ${item.target} corrected: the model wrote "${said}"; the run's searches show "${String(item.label)}".`;
}
