// What makes the command line's bundle start lean (test/bench figure 14), shared by esbuild.mjs and by that figure,
// which builds a script that only sends the same request through axios the same lean way: the floor any command line
// sending through axios stands on.
'use strict';

// The command line starts once per pipeline step, so its start is measured (test/bench figure 14). Reading one of
// Node's web globals (FormData, Request, Response, Headers, ReadableStream) loads undici or the web streams, ~25 ms of
// CPU: axios reads them while its modules load, for adapters this client never uses (it sends through node:http, and
// its uploads are form-data streams). This prelude hides them while the bundle's modules load; src/cli/cli.ts puts
// them back before anything runs, so they are there, unloaded, for any code that really uses them.
const cliPrelude = `#!/usr/bin/env node
'use strict';
globalThis[Symbol.for('hosted-reasoning.restoreWebGlobals')] = (() => {
  const hidden = [];
  for (const name of ['FormData', 'Request', 'Response', 'Headers', 'ReadableStream']) {
    const d = Object.getOwnPropertyDescriptor(globalThis, name);
    if (!d || !d.get || !d.configurable) continue;
    hidden.push([name, d]);
    Object.defineProperty(globalThis, name, { configurable: true, enumerable: false, writable: true, value: undefined });
  }
  return () => { for (const [name, d] of hidden) Object.defineProperty(globalThis, name, d); };
})();`;

// Two of axios's dependencies cost the command line's start more than anything else it loads, for code it never runs
// (test/bench figure 14): follow-redirects (the keyed client sets maxRedirects 0, so axios sends through node:http
// itself and never reaches it; the stub fails loudly if that ever changes) and mime-db, 200 KB of JSON form-data
// reads only to guess a part's type from its name (the client names every part's type itself: client.ts).
const cliLean = {
  name: 'cli-lean',
  setup(build) {
    build.onResolve({ filter: /^(follow-redirects|mime-db)$/ }, (args) => ({ path: args.path, namespace: 'cli-lean' }));
    build.onLoad({ filter: /.*/, namespace: 'cli-lean' }, (args) => ({
      loader: 'js',
      contents:
        args.path === 'mime-db'
          ? `module.exports = {
  'application/pdf': { extensions: ['pdf'] },
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': { extensions: ['docx'] },
  'application/octet-stream': { extensions: ['bin'] },
  'application/json': { extensions: ['json'] },
};`
          : `const refuse = () => { throw new Error('hosted-reasoning never follows a redirect with its key (follow-redirects is not in this build)'); };
module.exports = { http: { request: refuse, get: refuse }, https: { request: refuse, get: refuse } };`,
    }));
  },
};

module.exports = { cliPrelude, cliLean };
