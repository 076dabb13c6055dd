// What proves a packaged extension, shared by the UI run (test/e2e/run.ts, which installs the platform package) and
// `npm run test:package` (scripts/checkPackage.ts, which installs the universal one): the Extensions view shows it
// installed with its icon, and the universal package carries the platform package's files but the local runtime's.
import * as fs from 'node:fs';
import JSZip from 'jszip';
import type { Page } from 'playwright-core';

/** The Extensions view lists the installed extension, and its icon (media/icon.png in the package) loads. */
export async function showInstalledExtension(page: Page, displayName: string): Promise<void> {
  // The default Installed list, not a search: a search also asks the (unreachable) gallery and re-renders the list.
  await page.locator('.activitybar a[aria-label^="Extensions"]').click({ timeout: 15_000 });
  const row = page.locator('.extensions-viewlet .monaco-list-row', { hasText: displayName }).first();
  await row.waitFor({ timeout: 15_000 });
  // The icon comes from the installed package (media/icon.png): a broken path would leave an empty image.
  await row.locator('img.icon').evaluate(
    (img: HTMLImageElement) =>
      new Promise<void>((resolve, reject) => {
        if (img.complete && img.naturalWidth > 0) return resolve();
        img.addEventListener('load', () => resolve(), { once: true });
        img.addEventListener('error', () => reject(new Error(`the extension icon did not load: ${img.src}`)), { once: true });
      }),
  );
}

/**
 * The files of a .vsix (a zip), folders left out. Read by a library, not `unzip`, which Windows lacks:
 * `npm run package:target` lists the package it wrote with this.
 */
export async function vsixFiles(vsix: string): Promise<string[]> {
  const zip = await JSZip.loadAsync(await fs.promises.readFile(vsix));
  return Object.values(zip.files)
    .filter((entry) => !entry.dir)
    .map((entry) => entry.name);
}

/** Files only a platform package carries: the local runtime (node-llama-cpp and its platform build, its child process). */
const isRuntimeFile = (file: string): boolean => file.startsWith('extension/node_modules/') || file === 'extension/dist/localRuntime.js';

/**
 * How the universal package's files differ from the platform package's beyond the runtime: empty when it carries every
 * other file and nothing else (both are made from one build and one allowlist, so a difference is a packaging fault).
 */
export function universalPackageDifferences(universal: readonly string[], platform: readonly string[]): string[] {
  const expected = new Set(platform.filter((file) => !isRuntimeFile(file)));
  const actual = new Set(universal);
  return [
    ...[...expected].filter((file) => !actual.has(file)).map((file) => `missing from the universal package: ${file}`),
    ...[...actual].filter((file) => !expected.has(file)).map((file) => `only in the universal package: ${file}`),
  ].sort();
}

/** The sizes README's *Install* states, in MB: "The platform package (…, about 13 MB)", "the universal one (about 2.5 MB)". */
export function statedPackageSizes(readme: string): { platform?: number; universal?: number } {
  const mb = (pattern: RegExp) => {
    const figure = pattern.exec(readme)?.[1];
    return figure === undefined ? undefined : Number(figure);
  };
  return {
    platform: mb(/The platform package \([^)]*?about\s+([\d.]+)\s+MB\)/),
    universal: mb(/the universal one \(about\s+([\d.]+)\s+MB\)/),
  };
}

/** How far a stated size may be from the package's ("about"; the platform packages differ by target: 12.3 to 13.0 MB). */
const SIZE_TOLERANCE = 0.15;

/** Where README's stated sizes are not the packages' (bytes), or state none: empty when they agree. */
export function packageSizeProblems(readme: string, actualBytes: { platform: number; universal: number }): string[] {
  const stated = statedPackageSizes(readme);
  return (['platform', 'universal'] as const).flatMap((which) => {
    const said = stated[which];
    const actual = actualBytes[which] / 1024 / 1024;
    if (said === undefined) return [`README states no size for the ${which} package`];
    return Math.abs(actual - said) > said * SIZE_TOLERANCE
      ? [`README says the ${which} package is about ${said} MB; it is ${actual.toFixed(1)} MB`]
      : [];
  });
}
