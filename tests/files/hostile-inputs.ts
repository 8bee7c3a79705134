/**
 * Hostile files for the denial-of-service tests, generated on the fly (nothing binary in the
 * repository) in milliseconds: deflate streams of zeros are built from one flushed 1 MB block
 * repeated (a full flush makes each copy independent of the previous one), so a 64 MB or 256 MB
 * payload is never held in memory while it is made.
 */
import zlib from "node:zlib";
import ExcelJS from "exceljs";
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { columnLetters } from "@/lib/files/extract/xlsx-scan";

const MB = 1024 * 1024;

/**
 * Raw deflate of `bytes` zeros in one dynamic-Huffman block, written by hand: a literal 0, then
 * "copy 258 bytes from distance 1" repeated, where that length and that distance each get a
 * 1-bit code, both 0. So after a 20-byte header the stream is zero bytes, 2 bits per 258 output
 * bytes (~1032:1, deflate's best), built in microseconds; 64 MB is a 65 KB stream.
 */
export function deflatedZeroBytes(bytes: number): Buffer {
  const bits = new BitWriter();
  bits.int(1, 1); // BFINAL
  bits.int(2, 2); // BTYPE: dynamic Huffman
  bits.int(29, 5); // HLIT: 286 literal/length codes
  bits.int(0, 5); // HDIST: 1 distance code
  bits.int(14, 4); // HCLEN: 18 code-length codes, in the order below
  // Code-length alphabet: 18 (a run of zeros) "0", 1 "10", 2 "11".
  const clLengths: Record<number, number> = { 18: 1, 1: 2, 2: 2 };
  for (const sym of [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1]) bits.int(clLengths[sym] ?? 0, 3);
  const cl = { 18: "0", 1: "10", 2: "11" } as const;
  const zeros = (n: number) => {
    bits.code(cl[18]);
    bits.int(n - 11, 7);
  };
  // Literal/length code lengths: 0 → 2, 256 (end of block) → 2, 285 (length 258) → 1; distance 0 (distance 1) → 1.
  bits.code(cl[2]);
  zeros(138);
  zeros(117);
  bits.code(cl[2]);
  zeros(28);
  bits.code(cl[1]);
  bits.code(cl[1]);
  // Canonical codes: 285 "0", 0 "10", 256 "11"; distance 0 "0".
  bits.code("10");
  const copies = Math.floor((bytes - 1) / 258);
  const rest = bytes - 1 - copies * 258;
  const head = bits.take();
  const body = Buffer.alloc(Math.floor((head.bits + copies * 2) / 8) - head.bytes.byteLength + 8);
  const tail = new BitWriter(head.bits + copies * 2, Buffer.concat([head.bytes, body]));
  for (let i = 0; i < rest; i++) tail.code("10"); // the last few zeros as literals
  tail.code("11"); // end of block
  return tail.take().bytes;
}

/** Deflate's bit order: fields least significant bit first, Huffman codes most significant bit first. */
class BitWriter {
  constructor(
    private at = 0,
    private buf = Buffer.alloc(64),
  ) {}

  int(value: number, width: number): void {
    for (let i = 0; i < width; i++) this.bit((value >> i) & 1);
  }

  code(code: string): void {
    for (const ch of code) this.bit(ch === "1" ? 1 : 0);
  }

  take(): { bytes: Buffer; bits: number } {
    return { bytes: this.buf.subarray(0, Math.ceil(this.at / 8)), bits: this.at };
  }

  private bit(b: number): void {
    const byte = this.at >> 3;
    if (byte >= this.buf.byteLength) this.buf = Buffer.concat([this.buf, Buffer.alloc(this.buf.byteLength)]);
    if (b) this.buf[byte]! |= 1 << (this.at & 7);
    this.at++;
  }
}

/** Raw deflate of `mb` MB of zeros. */
export function deflatedZeros(mb: number): Buffer {
  return deflatedZeroBytes(mb * MB);
}

export type ZipEntry = { name: string; data: Uint8Array; method: 0 | 8; declaredSize: number; crc?: number };

/**
 * The fields a zip's local header and its central directory entry share (version needed, flags
 * with UTF-8 names, method, CRC, sizes, name length), written from `at`: 4 in a local header, 6 in
 * a central entry, whose "version made by" comes first.
 */
function writeEntryFields(header: Buffer, at: number, e: ZipEntry, nameLength: number) {
  header.writeUInt16LE(20, at);
  header.writeUInt16LE(0x800, at + 2);
  header.writeUInt16LE(e.method, at + 4);
  header.writeUInt32LE(e.crc ?? 0, at + 10);
  header.writeUInt32LE(e.data.byteLength, at + 14);
  header.writeUInt32LE(e.declaredSize, at + 18);
  header.writeUInt16LE(nameLength, at + 22);
}

/** A zip written by hand, so its headers can say whatever a test wants (sizes that lie). */
export function writeZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, "utf8");
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeEntryFields(local, 4, e, name.byteLength);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    writeEntryFields(central, 6, e, name.byteLength);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, Buffer.from(e.data));
    centrals.push(central, name);
    offset += 30 + name.byteLength + e.data.byteLength;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.byteLength, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** The entries of a real zip (an office fixture), stored as they are, to rebuild it with extra entries. */
export function storedEntries(zip: Uint8Array): ZipEntry[] {
  return Object.entries(unzipSync(zip)).map(([name, data]) => ({
    name,
    data,
    method: 0,
    declaredSize: data.byteLength,
    crc: zlib.crc32(data),
  }));
}

/** `fixture` (a docx/xlsx/pptx) plus an entry that declares 10 bytes and inflates to `mb` MB. */
export function withLyingEntry(fixture: Uint8Array, mb: number, name = "docProps/custom.xml"): Buffer {
  return writeZip([...storedEntries(fixture), { name, data: deflatedZeros(mb), method: 8, declaredSize: 10 }]);
}

/** An xlsx with values only in A1 and XFD1048576: a few KB whose used area is 17 billion cells. */
export async function cornerToCornerXlsx(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("Data");
  ws.getCell("A1").value = "top left";
  ws.getCell("XFD1048576").value = "bottom right";
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A CSV whose first row has `width` fields, followed by `rows` one-field rows (~160 KB for 40,000 × 40,000). */
export function wideHeaderCsv(width = 40_000, rows = 40_000): Buffer {
  return Buffer.from(`${Array.from({ length: width }, () => "h").join(",")}\n${"x\n".repeat(rows)}`);
}

/**
 * A grayscale PNG of `side` × `side` zero pixels (16,383² ≈ 268 MP, libvips' default limit:
 * ~260 KB that decode to 268 MB, a gigabyte as RGBA).
 */
export function hugeBlankPng(side = 16_383): Buffer {
  const raw = (side + 1) * side; // each row: a filter byte, then one byte per pixel
  // The zlib stream: header, deflated zeros, Adler-32 of `raw` zeros (A stays 1, B adds 1 per byte).
  const deflated = deflatedZeroBytes(raw);
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((raw % 65521) * 65536 + 1, 0);
  const idat = Buffer.concat([Buffer.from([0x78, 0xda]), deflated, adler]);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(0, 9); // grayscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", idat),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.byteLength, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** The first sheet of `makeXlsx()`-like workbook `xlsx` with its XML changed by `edit` (the archive rebuilt, stored). */
export function editFirstSheet(xlsx: Uint8Array, edit: (xml: string) => string): Buffer {
  const parts = unzipSync(xlsx);
  const path = "xl/worksheets/sheet1.xml";
  parts[path] = strToU8(edit(strFromU8(parts[path]!)));
  return Buffer.from(zipSync(parts, { level: 1 }));
}

/** `xlsx` whose first sheet holds `rows` × `cols` numbers (written as XML: exceljs would take seconds to write them). */
export function withBigFirstSheet(xlsx: Uint8Array, rows: number, cols: number): Buffer {
  const letters = Array.from({ length: cols }, (_, c) => columnLetters(c + 1));
  const body: string[] = [];
  for (let r = 1; r <= rows; r++) {
    body.push(`<row r="${r}">${letters.map((l, c) => `<c r="${l}${r}"><v>${r * cols + c}</v></c>`).join("")}</row>`);
  }
  return editFirstSheet(xlsx, (xml) =>
    xml.replace(/<sheetData>[\s\S]*<\/sheetData>|<sheetData\/>/, `<sheetData>${body.join("")}</sheetData>`),
  );
}
