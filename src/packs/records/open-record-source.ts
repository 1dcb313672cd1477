import { defaultIndexPath, IndexedRecords } from './indexed-records.js';
import type { RecordSource } from './record-query.js';
import { scanRecords } from './scanned-records.js';
import type { StoreInfo } from './stores.js';

/**
 * The on-disk index when it can be kept; a plain scan otherwise (a read-only checkout),
 * reported through `onFallback` so the slow path is never silent.
 */
export function openRecordSource(
  root: string,
  stores: StoreInfo[],
  options: { env?: NodeJS.ProcessEnv; noIndex?: boolean; onFallback?: (why: string) => void } = {},
): RecordSource {
  if (options.noIndex) return scanRecords(root, stores);
  try {
    const check = (options.env ?? process.env).TALLY_RECORDS_INDEX_CHECK === 'dirs' ? 'dirs' : 'files';
    return IndexedRecords.open(root, stores, defaultIndexPath(root, options.env), check);
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (
      !/^(EACCES|EROFS|EPERM|ENOSPC|INDEX_UNAVAILABLE|SQLITE_CANTOPEN|SQLITE_READONLY|SQLITE_IOERR.*)$/.test(
        code,
      )
    )
      throw error;
    options.onFallback?.(`${code}: ${(error as Error).message}`);
    return scanRecords(root, stores);
  }
}
