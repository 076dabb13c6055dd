// One streamed question to the emulator through the real client, for a tiny run's check that a figure's emulator
// answers the way the figure reads it (figures 3, 9, 11 measure the answer in VS Code; a tiny run starts none).
import { ServiceClient } from '../../src/api/client';

/** The whole answer's text. */
export async function askOnce(baseUrl: string, apiKey: string, prompt: string, modelName: string): Promise<string> {
  const client = new ServiceClient({ baseUrl, apiKey });
  let text = '';
  const request = { prompt, modelName, stream: true, useRag: false, sequentialBudget: 1, parallelBudget: 1, temperature: 0.7 };
  for await (const piece of client.infer(request)) text += piece.text;
  return text;
}
