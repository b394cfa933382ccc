import { startSimulator } from '../sim/index.js';

/** Runs the provider simulator alone, for offline development against the vendors' own formats. */
export async function runSimCommand(options: { port: number; host: string }): Promise<number> {
  const simulator = await startSimulator(options);
  console.log(`switchyard simulator listening on ${simulator.url}`);
  console.log(`  OpenAI:    ${simulator.url}/v1   (chat/completions, responses, images/generations, images/edits)`);
  console.log(`  Anthropic: ${simulator.url}       (/v1/messages)`);
  console.log(`  Gemini:    ${simulator.url}       (/v1beta/models/{model}:generateContent, Imagen :predict)`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await simulator.close();
  return 0;
}
