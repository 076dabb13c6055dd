// Installs the host's translations. playground.ts imports this first, so it runs before any module of the page
// writes a word (ES modules run in import order).
import { readBundle, useBundle } from './pageL10n';

useBundle(readBundle(document.getElementById('app')?.dataset.l10n));
