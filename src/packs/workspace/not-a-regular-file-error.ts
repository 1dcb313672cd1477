import { ToolRejectedError } from '../../core/errors.js';
import type { FileKind } from './file-kind.js';

/**
 * A FIFO, socket or device where a regular file was expected. Refused before any open that
 * could block (a FIFO without a writer) or never end (`/dev/zero`).
 */
export class NotARegularFileError extends ToolRejectedError {
  readonly kind: FileKind;

  constructor(relative: string, kind: FileKind) {
    super(
      'NOT_A_REGULAR_FILE',
      `${relative} is a ${kind.replace('-', ' ')}, not a regular file: it cannot be read, written or searched. Pick a regular file (fs_list shows each entry's type).`,
      { path: relative, kind },
    );
    this.kind = kind;
  }
}
