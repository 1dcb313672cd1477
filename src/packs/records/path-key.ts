/**
 * A 128-bit hex key for a path: four FNV-1a lanes with different offsets over its UTF-8 bytes.
 * Names the records index folder of a root without loading node:crypto (~3 ms of every query).
 * Not a security boundary, and it need not be one: the index stores the root it was built for,
 * so two roots that ever shared a key would cost a rebuild, never a wrong answer.
 */
export function pathKey(path: string): string {
  const bytes = Buffer.from(path, 'utf8');
  const lanes = [0x811c9dc5, 0x050c5d1f, 0x2166136b, 0x6c078965];
  for (let lane = 0; lane < lanes.length; lane++) {
    let hash = lanes[lane] as number;
    for (let index = 0; index < bytes.length; index++) {
      hash ^= (bytes[index] as number) + lane;
      hash = Math.imul(hash, 0x01000193);
    }
    lanes[lane] = hash >>> 0;
  }
  return lanes.map((lane) => lane.toString(16).padStart(8, '0')).join('');
}
