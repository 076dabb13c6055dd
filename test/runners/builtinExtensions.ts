// How the server build's built-in extensions get their one dependency (typescript). Their package's postinstall
// (extensions/postinstall.mjs) only prunes typescript's files to save disk space, printing a "Removed …" or
// "removed '…'" line for each of hundreds of them into the first `npm start`. Skipping the script stops those lines at
// their source and leaves every other line of the step on screen; the unpruned typescript (about 20 MB more) is a
// superset of what the extensions load. typescript itself has no install script.
export const BUILTIN_EXTENSIONS_INSTALL_ARGS: readonly string[] = ['install', '--omit=dev', '--ignore-scripts'];
