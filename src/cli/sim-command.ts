import { startSimulator } from '../sim/index.js';

/** Runs the provider simulator alone, for offline development against the vendors' own formats. */
export async function runSimCommand(options: { port: number; host: string }): Promise<number> {
  const simulator = await startSimulator(options);
  console.log(`switchyard simulator listening on ${simulator.url}`);
  console.log(`  OpenAI:    ${simulator.url}/v1   (chat/completions, responses, images/generations, images/edits)`);
  console.log(`  Anthropic: ${simulator.url}       (/v1/messages)`);
  console.log(`  Gemini:    ${simulator.url}       (/v1beta/models/{model}:generateContent, Imagen :predict)`);
  console.log(`  Azure:     ${simulator.url}       (/openai/v1/…, /openai/deployments/{deployment}/…?api-version=)`);
  console.log(`  Bedrock:   ${simulator.url}       (/model/{id}/invoke, converse, count-tokens; SigV4 or a Bearer key, any)`);
  console.log(`  Vertex AI: ${simulator.url}       (/v1/projects/{p}/locations/{l}/publishers/{google|anthropic}/models/…; any Bearer token)`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await simulator.close();
  return 0;
}
