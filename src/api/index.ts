// The service client's entry point as the extension loads it, on first use: dist/api.js is its own bundle (axios,
// form-data and mime types stay out of the activation path). Everything the extension needs at run time from
// src/api beyond the small shared modules (errors, redact, types, urlPolicy) is exported here.
export { ServiceClient } from './client';
export { partFilePath } from './download';
export { removePartFile } from './partFile';
export { artifactFileName } from './fileName';
