// Child for the kill -9 test: rewrites one file with alternating 4 MiB contents forever.

import { writeFileAtomic } from '../../../src/packs/workspace/atomic-write.js';
import { ProjectRoot } from '../../../src/packs/workspace/project-root.js';

const [rootDir, name] = process.argv.slice(2) as [string, string];
const root = await ProjectRoot.open(rootDir);
const big = (char: string) => char.repeat(4 * 1024 * 1024);
process.send?.('ready');
for (let index = 0; ; index++) {
  const target = await root.resolve(name);
  await writeFileAtomic(root, target, big(index % 2 === 0 ? 'b' : 'a'));
}
