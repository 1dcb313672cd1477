import { IndexedRecords, type RecordsCheck } from './indexed-records.js';
import type { RecordSource } from './record-query.js';
import { recordsIndexPath } from './records-index-path.js';
import { scanRecords } from './scanned-records.js';
import type { StoreInfo } from './stores.js';

/**
 * The on-disk index when it can be kept; a plain scan otherwise (a read-only checkout),
 * reported through `onFallback` so the slow path is never silent.
 */
export function openRecordSource(
  root: string,
  stores: StoreInfo[],
  options: {
    env?: NodeJS.ProcessEnv;
    noIndex?: boolean;
    /** `--index PATH`: wins over TALLY_RECORDS_INDEX and the cache folder. */
    indexPath?: string;
    onFallback?: (why: string) => void;
    /** What the call stats before it answers (RecordsCheck); TALLY_RECORDS_INDEX_CHECK=dirs wins. */
    check?: RecordsCheck;
  } = {},
): RecordSource {
  if (options.noIndex) return scanRecords(root, stores);
  try {
    const env = options.env ?? process.env;
    const check = env.TALLY_RECORDS_INDEX_CHECK === 'dirs' ? 'dirs' : (options.check ?? 'files');
    return IndexedRecords.open(root, stores, recordsIndexPath(root, env, options.indexPath), check);
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (
      !/^(EACCES|EROFS|EPERM|ENOSPC|INDEX_UNAVAILABLE|SQLITE_CANTOPEN|SQLITE_READONLY|SQLITE_CORRUPT.*|SQLITE_NOTADB|SQLITE_IOERR.*)$/.test(
        code,
      )
    )
      throw error;
    options.onFallback?.(`${code}: ${(error as Error).message}`);
    return scanRecords(root, stores);
  }
}
