// Public API of `tally/workspace`: project-scoped file tools whose evidence is read back
// from disk, and the root every path resolves against. Importing it has no side effects.
export { NotARegularFileError } from './not-a-regular-file-error.js';
export { PathOutsideProjectError, type PathRejectionReason } from './path-outside-project-error.js';
export { ProjectRoot, type ResolvedPath } from './project-root.js';
export { type WorkspaceContext, workspaceTools } from './tools/index.js';
