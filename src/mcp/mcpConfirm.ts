// A paid action's confirmation by the person, not the agent: where the client can ask its user (MCP elicitation), the
// server asks there, whatever the agent's arguments say; elsewhere the agent must pass `confirm: true`, and a call
// without it is refused with what the action would cost, for the agent to put to the person first. The service states
// no price, so the cost is said as what is sent and done (files and sizes, questions, requests), as the extension's
// confirmations say it.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

export type Confirmation = { confirmed: true } | { refused: string[] };

/** Whether the person agreed to `cost` (one paragraph: what will be done and that it spends compute). */
export async function confirmPaid(server: Server, cost: string, confirm: boolean | undefined, signal: AbortSignal): Promise<Confirmation> {
  if (server.getClientCapabilities()?.elicitation) {
    const answer = await server.elicitInput(
      {
        message: cost,
        requestedSchema: {
          type: 'object',
          properties: { start: { type: 'boolean', title: 'Start it', description: 'Start it and spend the compute' } },
          required: ['start'],
        },
      },
      { signal },
    );
    if (answer.action === 'accept' && answer.content?.start === true) return { confirmed: true };
    return { refused: ['Not started: the person did not confirm it when asked.', `It was: ${cost}`] };
  }
  if (confirm === true) return { confirmed: true };
  return {
    refused: [
      `Not started: ${cost}`,
      'This client cannot ask the person to confirm it: tell the person what it costs, and only if they agree call again with the same arguments and confirm: true.',
    ],
  };
}
