import { TallyError } from '../../../core/errors.js';

/** A capture file or directory that cannot be read. Nothing from it is used. */
export class CaptureFormatError extends TallyError {
  constructor(source: string, where: string, problem: string) {
    super(
      'CAPTURE_INVALID',
      `${source}: ${where ? `${where}: ` : ''}${problem}. Re-export the HAR (Chrome DevTools → Network → Save all as HAR with content) or point --captures at a valid file.`,
      { source, where },
    );
  }
}

export class CapturesNotFoundError extends TallyError {
  constructor(source: string) {
    super(
      'CAPTURES_NOT_FOUND',
      `No captures at ${source}. Pass --captures with a .har file or an explorbot output/requests directory.`,
      { source },
    );
  }
}
