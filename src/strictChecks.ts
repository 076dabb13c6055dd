// Moved to src/api/strictChecks.ts so that src/api (the service profile's format) may use it too; this path stays for
// the modules above src/api that import it.
export * from './api/strictChecks';
