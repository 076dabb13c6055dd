// Whether this install carries the native runtime: node-llama-cpp and the CPU build of its platform package (a platform
// .vsix has both; the universal one has neither). Found the way Node would find them, without loading anything.
import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** node-llama-cpp's platform package for this machine's CPU build, as its own loader names them. */
export function platformPackageName(platform: NodeJS.Platform = process.platform, arch: string = process.arch): string | undefined {
  const names: Record<string, string> = {
    'linux-x64': 'linux-x64',
    'linux-arm64': 'linux-arm64',
    'linux-arm': 'linux-armv7l',
    'darwin-arm64': 'mac-arm64-metal',
    'darwin-x64': 'mac-x64',
    'win32-x64': 'win-x64',
    'win32-arm64': 'win-arm64',
  };
  return names[`${platform}-${arch}`];
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** `from`: a folder the runtime's code runs in (Node looks in its node_modules and every parent's). */
export async function nativeRuntimeAvailable(from: string): Promise<boolean> {
  const platform = platformPackageName();
  if (!platform) return false;
  const folders = createRequire(join(from, 'noop.js')).resolve.paths('node-llama-cpp') ?? [];
  for (const modules of folders) {
    const main = join(modules, 'node-llama-cpp');
    if (!(await exists(join(main, 'package.json')))) continue;
    // Nested under node-llama-cpp when versions differ, else beside it.
    for (const root of [join(main, 'node_modules'), modules]) {
      if (await exists(join(root, '@node-llama-cpp', platform, 'bins', platform, 'llama-addon.node'))) return true;
    }
    return false;
  }
  return false;
}
