import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * A path under the root the caller probably meant: the longest tail of the given path that
 * exists under the root (`/workspace/src/app/page.tsx` → `src/app/page.tsx`), else the
 * longest tail whose parent directory exists.
 */
export function suggestPath(given: string, root: string): string | undefined {
  if (given.includes('\0')) return undefined;
  const segments = given.split(/[\\/]+/).filter((segment) => segment && segment !== '.' && segment !== '..');
  for (let start = 0; start < segments.length; start++) {
    const tail = segments.slice(start).join('/');
    if (existsSync(join(root, tail))) return tail;
  }
  for (let start = 0; start < segments.length; start++) {
    const tail = segments.slice(start).join('/');
    if (segments.length - start > 1 && existsSync(dirname(join(root, tail)))) return tail;
  }
  return undefined;
}
