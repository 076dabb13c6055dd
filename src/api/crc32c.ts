// CRC32C (Castagnoli), the checksum Google Cloud Storage announces for every object (x-goog-hash: crc32c=...), even
// for composite objects that have no MD5. No package in the tree provides it; the byte-at-a-time table version is
// enough because it is computed only when a store announces nothing stronger.

const TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** A running CRC32C with the shape of node:crypto's Hash for what the download uses. */
export class Crc32c {
  private crc = -1;

  update(data: Uint8Array): this {
    let c = this.crc;
    for (let i = 0; i < data.length; i++) c = TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
    this.crc = c;
    return this;
  }

  /** The big-endian 4-byte value (the byte order GCS base64-encodes), as hex. */
  digest(encoding: 'hex'): string {
    const out = Buffer.alloc(4);
    out.writeUInt32BE((this.crc ^ -1) >>> 0);
    return out.toString(encoding);
  }
}
