import type { Stats } from 'node:fs';

/** What a directory entry is; anything but `file` cannot be read as text. */
export type FileKind =
  | 'file'
  | 'directory'
  | 'symlink'
  | 'fifo'
  | 'socket'
  | 'character-device'
  | 'block-device'
  | 'other';

export function fileKind(
  stats: Pick<
    Stats,
    | 'isFile'
    | 'isDirectory'
    | 'isSymbolicLink'
    | 'isFIFO'
    | 'isSocket'
    | 'isCharacterDevice'
    | 'isBlockDevice'
  >,
): FileKind {
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'directory';
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice()) return 'character-device';
  if (stats.isBlockDevice()) return 'block-device';
  return 'other';
}
