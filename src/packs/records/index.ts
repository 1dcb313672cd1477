// Public API of `tally/records`: the one query surface over markdown knowledge records
// (query, --cat, --recall, lint) and the same as agent/MCP tools. No side effects on import.
export { catRecords, formatDump, normalizeRecordPath } from './cat-records.js';
export { type LintProblem, lintRecords } from './lint-records.js';
export { openRecordSource } from './open-record-source.js';
export { type RecallHit, recall } from './recall.js';
export type { RecordQuery, RecordRow, RecordSource, SkippedRecord } from './record-query.js';
export { RecordsUnavailableError, RecordsUsageError } from './records-error.js';
export { DEFAULT_STORES, listStores, resolveRecordsRoot, type StoreInfo } from './stores.js';
export { type RecordsToolContext, recordClaimResolver, recordsTools } from './tools/records-tools.js';
export {
  RECORDS_SWEEP_MS,
  type WatchedRecordSource,
  type WatchRecordsOptions,
  watchRecordSource,
} from './watched-records.js';
