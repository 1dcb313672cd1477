import { ToolRejectedError } from '../../core/errors.js';

/** Why a path was refused; stable values for tests, stats and clients. */
export type PathRejectionReason =
  | 'empty-path'
  | 'nul-byte'
  | 'traversal'
  | 'absolute-outside'
  | 'symlink-escape'
  | 'outside-client-roots'
  | 'glob-escape'
  | 'race-detected'
  | 'project-root'
  | 'protected-path';

export class PathOutsideProjectError extends ToolRejectedError {
  readonly reason: PathRejectionReason;

  constructor(
    given: string,
    resolved: string,
    reason: PathRejectionReason,
    root: string,
    suggestion?: string,
  ) {
    const hint = suggestion ? `Did you mean "${suggestion}"? ` : '';
    super(
      'PATH_OUTSIDE_PROJECT',
      `Path "${given.replace(/\0/g, '\\0')}" is outside the project (${reason}): it resolves to ${resolved}. ${hint}Use a path relative to the project root ${root}.`,
      { given, resolved, reason, root, ...(suggestion ? { suggestion } : {}) },
    );
    this.reason = reason;
  }
}
