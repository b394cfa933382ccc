/**
 * Sent with every piece of generated content the gateway serves (video content, thumbnails, image
 * URLs, admin downloads). The content comes from upstreams and is served from the console's
 * origin: `nosniff` stops a browser from guessing a type other than the one declared, and a
 * sandboxing policy makes anything opened as a document run in a unique origin without script,
 * so content can never act as the console.
 */
export const contentSafetyHeaders: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': 'sandbox',
};
