// A service profile: where the answers of one service keep what the spec leaves "not shown", as data (paths and value
// maps), so that it can be inferred once, kept per origin, shown to a person, chosen by them, or written by hand in
// the `hostedReasoning.serviceProfile` setting. Its format (types and checker) is stated once in profileFormat.ts;
// this path re-exports it for the modules that import it from here. Who keeps the profiles: profileBook.ts.

export * from './profileFormat';
