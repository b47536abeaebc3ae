/**
 * What a spreadsheet upload is before it is opened: a zip (xlsx) or not, and how much it says it
 * unpacks to — read from the zip's central directory, so a bomb is refused before exceljs inflates it.
 */

export const isZip = (data: Buffer) => data.length >= 4 && data.readUInt32LE(0) === 0x04034b50;

/** The sum of the unpacked sizes a zip declares in its central directory (null: not a readable zip). */
export function unpackedSize(data: Buffer): number | null {
  const min = Math.max(0, data.length - 22 - 0xffff);
  for (let eocd = data.length - 22; eocd >= min; eocd--) {
    if (data.readUInt32LE(eocd) !== 0x06054b50) continue;
    const entries = data.readUInt16LE(eocd + 10);
    let at = data.readUInt32LE(eocd + 16);
    let total = 0;
    for (let i = 0; i < entries; i++) {
      if (at + 46 > data.length || data.readUInt32LE(at) !== 0x02014b50) return null;
      total += data.readUInt32LE(at + 24);
      at += 46 + data.readUInt16LE(at + 28) + data.readUInt16LE(at + 30) + data.readUInt16LE(at + 32);
    }
    return total;
  }
  return null;
}
