import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { RecordsUnavailableError, RecordsUsageError } from './records-error.js';

export const DEFAULT_STORES = [
  'references/failure-modes',
  'references/decisions',
  'references/solutions',
  'references/procedures',
  'references/research',
  'references/principles',
  'references/invariants',
  'references/policies',
  'references/standards',
  'plans',
] as const;

/** `--root`, else TALLY_RECORDS_ROOT, else the working directory; a missing root is exit 3. */
export function resolveRecordsRoot(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): string {
  const root = resolve(cwd, flag ?? env.TALLY_RECORDS_ROOT ?? '.');
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    throw new RecordsUnavailableError(
      'ROOT_NOT_FOUND',
      `The records root ${root} does not exist. Pass --root DIR or set TALLY_RECORDS_ROOT.`,
      { root },
    );
  }
  return root;
}

/**
 * Extra stores from TALLY_RECORDS_STORES (comma-separated). Relative paths only: absolute
 * paths, `..`, globs and dash-leading names are refused loudly, never silently skipped.
 */
export function parseExtraStores(value: string | undefined): string[] {
  if (!value?.trim()) return [];
  return value.split(',').map((raw) => {
    const store = raw.trim().replace(/\/+$/, '');
    const problem = !store
      ? 'is empty'
      : store.startsWith('/') || /^[a-zA-Z]:/.test(store)
        ? 'is absolute'
        : store.split('/').includes('..')
          ? 'contains ..'
          : /[*?[\]{}]/.test(store)
            ? 'contains glob characters'
            : store.startsWith('-')
              ? 'starts with a dash'
              : /[\0\n\r]/.test(store)
                ? 'contains a control character'
                : undefined;
    if (problem) {
      throw new RecordsUsageError(
        'STORE_INVALID',
        `Extra store "${raw}" ${problem}. TALLY_RECORDS_STORES takes relative directory names under the root, comma-separated.`,
        { store: raw },
      );
    }
    return store.replace(/^\.\//, '');
  });
}

export interface StoreInfo {
  store: string;
  absolute: string;
  exists: boolean;
  extra: boolean;
}

export function listStores(root: string, env: NodeJS.ProcessEnv = process.env): StoreInfo[] {
  const extra = parseExtraStores(env.TALLY_RECORDS_STORES);
  const seen = new Set<string>();
  const stores: StoreInfo[] = [];
  for (const [store, isExtra] of [
    ...DEFAULT_STORES.map((name) => [name, false] as const),
    ...extra.map((name) => [name, true] as const),
  ]) {
    if (seen.has(store)) continue;
    seen.add(store);
    const absolute = resolve(root, store);
    const exists = existsSync(absolute);
    if (isExtra && exists && !statSync(absolute).isDirectory()) {
      throw new RecordsUnavailableError('STORE_UNREADABLE', `Extra store ${store} is not a directory.`, {
        store,
      });
    }
    if (isExtra && !exists) {
      throw new RecordsUnavailableError(
        'STORE_UNREADABLE',
        `Extra store ${store} (from TALLY_RECORDS_STORES) does not exist under ${root}.`,
        { store },
      );
    }
    stores.push({ store, absolute, exists, extra: isExtra });
  }
  return stores;
}
