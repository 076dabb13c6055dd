// WCAG 2's contrast ratio between two colours as a browser's computed style writes them (`rgb(r, g, b)`, `rgba(…)`,
// or the `color(srgb …)` form), for the in-editor checks that a chart's marks stand out from the page. No vscode:
// plain mocha checks it (test/unit/contrast.test.ts).

export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

/** The colour, or undefined for anything that is not one (`none`, `url("#hatch")`, a keyword). */
export function parseColour(text: string): Rgba | undefined {
  const rgb = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(text.trim());
  if (rgb) {
    const alpha = rgb[4] === undefined ? 1 : rgb[4].endsWith('%') ? Number(rgb[4].slice(0, -1)) / 100 : Number(rgb[4]);
    return { r: Number(rgb[1]), g: Number(rgb[2]), b: Number(rgb[3]), a: alpha };
  }
  const srgb = /^color\(srgb\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)(?:\s*\/\s*([\d.]+))?\s*\)$/.exec(text.trim());
  if (srgb) {
    return { r: Number(srgb[1]) * 255, g: Number(srgb[2]) * 255, b: Number(srgb[3]) * 255, a: srgb[4] === undefined ? 1 : Number(srgb[4]) };
  }
  return undefined;
}

function luminance({ r, g, b }: Rgba): number {
  const channel = (v: number) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** `top` painted over the opaque `under` (a translucent colour shows what is beneath it). */
export function over(top: Rgba, under: Rgba): Rgba {
  const mix = (t: number, u: number) => t * top.a + u * (1 - top.a);
  return { r: mix(top.r, under.r), g: mix(top.g, under.g), b: mix(top.b, under.b), a: 1 };
}

/** The contrast ratio (1 to 21) of `colour` painted on the opaque `background`. */
export function contrastRatio(colour: Rgba, background: Rgba): number {
  const [hi, lo] = [luminance(over(colour, background)), luminance(background)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
