// The download save dialog's starting folder with no download folder set: never the workspace (an artifact saved next
// to the sources ends up in a commit), but the last folder used, else ~/Downloads, else the home folder.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { defaultSaveFolder } from '../../src/features/download/defaultSaveFolder';

const home = path.join(path.sep, 'home', 'person');
const downloads = path.join(home, 'Downloads');
const existing =
  (...folders: string[]) =>
  (folder: string) =>
    folders.includes(folder);

describe('defaultSaveFolder', () => {
  it('starts in the folder used last while it exists', () => {
    const last = path.join(path.sep, 'data', 'models');
    assert.equal(defaultSaveFolder(last, home, existing(last, downloads)), last);
  });

  it('starts in ~/Downloads when nothing was used yet or the last folder is gone', () => {
    assert.equal(defaultSaveFolder(undefined, home, existing(downloads)), downloads);
    assert.equal(defaultSaveFolder(path.join(path.sep, 'gone'), home, existing(downloads)), downloads);
  });

  it('starts in the home folder when there is no Downloads folder', () => {
    assert.equal(defaultSaveFolder(undefined, home, existing()), home);
  });
});
