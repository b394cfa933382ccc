/** One content block of a Messages request, as the fake Claudes of the agent tests read it. */
export interface Block {
  readonly type?: string;
  readonly content?: unknown;
  readonly name?: string;
}

/** The blocks of one message (none when its content is a plain string). */
export function blocksOf(message: unknown): readonly Block[] {
  const content = (message as { content?: unknown } | undefined)?.content;
  return Array.isArray(content) ? (content as Block[]) : [];
}

/** The text a content value carries: the string itself, or its text parts joined. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as { text?: unknown }[]).map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
}
