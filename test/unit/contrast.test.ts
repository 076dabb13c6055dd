// The contrast check the in-editor accessibility tests judge the report's chart by (test/suite/contrast.ts).
import * as assert from 'node:assert/strict';
import { contrastRatio, parseColour } from '../suite/contrast';

const colour = (text: string) => {
  const c = parseColour(text);
  assert.ok(c, text);
  return c;
};

describe('contrast ratio (WCAG 2)', () => {
  it('reads the forms a computed style writes, and nothing else', () => {
    assert.deepEqual(parseColour('rgb(55, 148, 255)'), { r: 55, g: 148, b: 255, a: 1 });
    assert.deepEqual(parseColour('rgba(209, 134, 22, 0.333)'), { r: 209, g: 134, b: 22, a: 0.333 });
    assert.deepEqual(parseColour('rgb(0 0 0 / 50%)'), { r: 0, g: 0, b: 0, a: 0.5 });
    assert.deepEqual(parseColour('color(srgb 1 0 0)'), { r: 255, g: 0, b: 0, a: 1 });
    for (const none of ['none', 'url("#hatch-base")', 'transparent', '']) assert.equal(parseColour(none), undefined, none);
  });

  it('gives the ratios WCAG publishes', () => {
    const white = colour('rgb(255, 255, 255)');
    assert.equal(contrastRatio(colour('rgb(0, 0, 0)'), white), 21);
    assert.equal(contrastRatio(white, white), 1);
    assert.equal(contrastRatio(white, colour('rgb(0, 0, 0)')), 21, 'the same either way round');
    // #767676 is the lightest grey that passes 4.5:1 on white; #777777 just misses it.
    assert.ok(contrastRatio(colour('rgb(118, 118, 118)'), white) >= 4.5);
    assert.ok(contrastRatio(colour('rgb(119, 119, 119)'), white) < 4.5);
  });

  it('judges a translucent colour by what shows: the theme colour a third opaque on Dark Modern is under 3:1', () => {
    const page = colour('rgb(31, 31, 31)');
    const orange = colour('rgb(209, 134, 22)');
    assert.ok(contrastRatio(orange, page) >= 3, 'solid, it would pass');
    const third = contrastRatio({ ...orange, a: 1 / 3 }, page);
    assert.ok(third < 3 && third > 1.3, String(third));
    assert.equal(contrastRatio(colour('rgba(0, 0, 0, 0)'), page), 1, 'a transparent mark is not there');
  });
});
