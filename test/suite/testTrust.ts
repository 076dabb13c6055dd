// The private certificate authority of the in-editor run: made before the first test, trusted by the extension host
// through VS Code's own seam for extension tests (`https.globalAgent.testCertificates`, read by VS Code's proxy support
// when it loads the certificates it adds to every https request: the system store's under `http.systemCertificates`,
// and these in a test run). VS Code reads them once, at the first https request of the host, so they are in place
// before any test runs. The certificate names the made-up host a proxy test gives the service, and 127.0.0.2.
import * as https from 'node:https';
import { makeTestCertificates, type TestCertificates } from '../service/testCertificates';

/** Loopback, but not one of the names VS Code always sends direct (localhost, 127.0.0.1, ::1). */
export const PROXIED_LOOPBACK = '127.0.0.2';
/**
 * A name no resolver knows (the .test top-level domain is reserved): the proxy test's service. It must be a name, not
 * an address: VS Code's tunnel (https-proxy-agent) checks a certificate against "localhost" when the host is an IP.
 */
export const SERVICE_NAME = 'hr-emulator.test';

let certificates: TestCertificates | undefined;

export async function prepareTestTrust(): Promise<void> {
  certificates = await makeTestCertificates({ dns: [SERVICE_NAME], ips: [PROXIED_LOOPBACK] });
  const agent = https.globalAgent as https.Agent & { testCertificates?: string[] };
  agent.testCertificates = [...(agent.testCertificates ?? []), certificates.ca];
}

export function testCertificates(): TestCertificates {
  if (!certificates) throw new Error('prepareTestTrust() has not run (test/suite/index.ts runs it before mocha)');
  return certificates;
}
