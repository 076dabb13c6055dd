// A model name the service accepted is kept for when its model list cannot be read (connection/knownModelNames.ts).
// No vscode here: the download's transfer core (features/download/artifactTransfer.ts) calls it and is tested without
// an editor.
import { originOf } from '../../api/urlPolicy';
import type { Services } from '../../services';

/** A request with `name` was accepted by the service at `baseUrl`: the name is kept when it was typed (not awaited). */
export function keepAcceptedName(services: Services, baseUrl: string, name: string): void {
  const origin = originOf(baseUrl);
  if (!origin) return;
  services.knownModels.accepted(origin, name).catch((e: unknown) => services.log.warn(`Could not keep the model name: ${String(e)}`));
}
