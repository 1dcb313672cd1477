const GREETING =
  /^\s*(hi|hello|hey|hiya|yo|thanks|thank you|good (morning|afternoon|evening)|how are you)\b/i;
const ACTION =
  /\b(create|make|add|write|fix|update|delete|remove|run|build|prepare|generate|change|edit|refactor|implement|find|search|set up|install|move|rename|list|show|read|open|check|test|deploy|seed|store|save|put|send|upload|download|please)\b/i;

/**
 * The default classifier for a conversational opening: a greeting, or a question with no
 * request for action. Replace it per agent with `isConversational`.
 */
export function isConversational(message: string): boolean {
  const text = message.trim();
  if (text.length === 0) return false;
  if (ACTION.test(text)) return false;
  return GREETING.test(text) || text.endsWith('?');
}
