// A private certificate authority made for one test run, and a server certificate it signs: what a company's own CA
// and its service's certificate look like to a client that has the CA in its trust store (and only there).
import { generate } from 'selfsigned';

export interface TestCertificates {
  /** The CA's certificate (PEM): the only thing a client must trust. */
  ca: string;
  /** The server's key and certificate (PEM), signed by the CA, for the names and addresses asked for. */
  key: string;
  cert: string;
}

export async function makeTestCertificates(names: { dns?: string[]; ips?: string[] }): Promise<TestCertificates> {
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(Date.now() + 24 * 3600_000);
  const ca = await generate([{ name: 'commonName', value: 'Hosted Reasoning test CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const server = await generate([{ name: 'commonName', value: names.dns?.[0] ?? names.ips?.[0] ?? 'test' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          ...(names.dns ?? []).map((value) => ({ type: 2 as const, value })),
          ...(names.ips ?? []).map((ip) => ({ type: 7 as const, ip })),
        ],
      },
    ],
  });
  return { ca: ca.cert, key: server.private, cert: server.cert };
}
