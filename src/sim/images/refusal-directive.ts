/**
 * `[refuse]` in an image prompt makes the simulator answer with the vendor's content-policy
 * refusal, so clients can test that path without writing anything objectionable.
 */
export function asksForRefusal(prompt: string): boolean {
  return /\[refuse\]/i.test(prompt);
}
