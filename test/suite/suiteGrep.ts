// Which tests of the in-editor suite run: a pattern a person gives (HR_TEST_GREP) and a tag the runner gives per host
// (HR_TEST_TAG), both applying when both are set. Apart from index.ts, which imports vscode, so a unit test can reach it.

/** Mocha's grep for HR_TEST_GREP (a pattern) and HR_TEST_TAG (a word), both when both are set; undefined for all. */
export function suiteGrep(grep: string | undefined, tag: string | undefined): RegExp | undefined {
  const parts = [...(tag ? [`(?=.*${tag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})`] : []), ...(grep ? [`(?=.*(?:${grep}))`] : [])];
  return parts.length > 0 ? new RegExp(`^${parts.join('')}`) : undefined;
}
