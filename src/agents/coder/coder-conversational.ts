import { isConversational } from '../../core/agent/conversational.js';

/**
 * A file or path named in a message: `README.md`, `src/a.ts`, `lib/`, `` `parse()` ``, a dotfile
 * (`.env`, `.gitignore`) or a file known by its name alone (`Makefile`, `Dockerfile`). A
 * question about one is about the project's contents, which only its tools can read.
 */
const NAMES_PROJECT_THING =
  /(?:^|[\s("'`])(?:\.{0,2}\/)?[\w@.-]+(?:\/[\w@.-]+)+\/?|(?:^|[\s("'`])[\w@.-]+\/(?=[\s?!,.;:)'"`]|$)|(?:^|[\s("'`])[\w@-]+\.[a-z][a-z0-9]{0,7}\b|(?:^|[\s("'`])\.\w[\w.-]*|\b(?:Makefile|GNUmakefile|Dockerfile|Containerfile|Procfile|Gemfile|Rakefile|Jenkinsfile|Vagrantfile|Justfile|Brewfile|CODEOWNERS|LICENSE|README|CHANGELOG)\b|`[^`\n]+`/i;

/**
 * The Coder's conversational opening: a greeting, or a plain question with no request for
 * action (the core's rule), unless the message names a file, a path or code. "What does
 * README.md say?" answered without tools is an answer about a file nobody read — the spec's
 * "plain question" is one about nothing in the project.
 */
export function coderIsConversational(message: string): boolean {
  return isConversational(message) && !NAMES_PROJECT_THING.test(message);
}
