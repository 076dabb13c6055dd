// `models`: the models the key may use.
import type { CommandContext } from '../context';
import { modelJson } from '../jsonOutput';

export async function modelsCommand(ctx: CommandContext): Promise<number> {
  const models = await ctx.connection.client.listModels({ signal: ctx.signal, interactive: true });
  const width = Math.max(4, ...models.map((m) => m.name.length));
  const lines = models.map((m) => `${m.name.padEnd(width)}  ${m.kind}${m.baseModel ? `  (from ${m.baseModel})` : ''}`);
  ctx.out.result(models.length === 0 ? 'No models are listed for this key.' : lines.join('\n'), { models: models.map(modelJson) });
  return 0;
}
