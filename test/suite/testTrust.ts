// The private certificate authority of the in-editor run: made before the first test and trusted by the extension host
// the way a CA in the machine's store is: added to the host's default CA certificates (Node's
// tls.setDefaultCACertificates, Node 22.15+: the hosts' Node), which every https request's secure context starts from
// and VS Code's proxy support adds its loaded certificates to. Older hosts on an older Node get it through VS Code's
// extension-test seam instead (`https.globalAgent.testCertificates`, read at the host's first https request). The
// certificate names the made-up host a proxy test gives the service, and 127.0.0.2.
import * as https from 'node:https';
import * as tls from 'node:tls';
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
  const store = tls as typeof tls & {
    setDefaultCACertificates?: (certs: string[]) => void;
    getCACertificates?: (type: 'default') => string[];
  };
  if (store.setDefaultCACertificates && store.getCACertificates) {
    store.setDefaultCACertificates([...store.getCACertificates('default'), certificates.ca]);
    return;
  }
  const agent = https.globalAgent as https.Agent & { testCertificates?: string[] };
  agent.testCertificates = [...(agent.testCertificates ?? []), certificates.ca];
}

export function testCertificates(): TestCertificates {
  if (!certificates) throw new Error('prepareTestTrust() has not run (test/suite/index.ts runs it before mocha)');
  return certificates;
}
