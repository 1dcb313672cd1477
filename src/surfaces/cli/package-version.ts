import { readFileSync } from 'node:fs';

/**
 * The installed package's version, read at run time so it can never disagree with
 * package.json. The file sits three levels above this module in both src/ and dist/.
 */
export function packageVersion(): string {
  const text = readFileSync(new URL('../../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}
