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

/** For `outside-client-roots`: what the session may use, and the roots the client sent. */
export interface ClientRootsScope {
  allowed: string[];
  clientRoots: string[];
}

function clientRootsAdvice(root: string, scope: ClientRootsScope): string {
  const sent = scope.clientRoots.join(', ');
  if (scope.allowed.length === 0)
    return `The MCP client's roots (${sent}) share nothing with the project root ${root}, so this session may use no path: start the client inside the project, or serve a --root inside the client's roots.`;
  return `The MCP client's roots (${sent}) limit this session to ${scope.allowed.join(', ')}: use a path inside ${scope.allowed.length === 1 ? 'it' : 'one of them'}.`;
}

export class PathOutsideProjectError extends ToolRejectedError {
  readonly reason: PathRejectionReason;

  constructor(
    given: string,
    resolved: string,
    reason: PathRejectionReason,
    root: string,
    suggestion?: string,
    scope?: ClientRootsScope,
  ) {
    const hint = suggestion ? `Did you mean "${suggestion}"? ` : '';
    const advice = scope
      ? clientRootsAdvice(root, scope)
      : reason === 'protected-path'
        ? "It is or holds Tally's own state (the ledger that records these calls, recipes, digests), which the tools never read or change: work on the project's other files."
        : `${hint}Use a path relative to the project root ${root}.`;
    super(
      'PATH_OUTSIDE_PROJECT',
      `Path "${given.replace(/\0/g, '\\0')}" is outside the project (${reason}): it resolves to ${resolved}. ${advice}`,
      { given, resolved, reason, root, ...(suggestion ? { suggestion } : {}), ...(scope ?? {}) },
    );
    this.reason = reason;
  }
}
