// A minimal reader for the zip files `vsce` writes, enough to list a `.vsix` and read
// its text files without adding a dependency.

import * as fs from "node:fs";
import * as zlib from "node:zlib";

/** Reads every entry of a zip file into memory, by name. */
export function readZip(file: string): Map<string, Buffer> {
  return new Map([...readZipEntries(file)].map(([name, entry]) => [name, entry.data]));
}

/** An entry's contents and its Unix mode (`0o100755` for an executable file). */
export interface ZipEntry {
  data: Buffer;
  mode: number;
}

/** Reads every entry of a zip file with its Unix mode, by name. */
export function readZipEntries(file: string): Map<string, ZipEntry> {
  const zip = fs.readFileSync(file);
  // The end-of-central-directory record is the last 22 bytes unless there is an
  // archive comment; vsce writes none, but searching backwards costs little.
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) {
    end -= 1;
  }
  if (end < 0) {
    throw new Error(`${file} is not a zip file`);
  }
  const count = zip.readUInt16LE(end + 10);
  let entry = zip.readUInt32LE(end + 16);
  const files = new Map<string, ZipEntry>();
  for (let i = 0; i < count; i += 1) {
    if (zip.readUInt32LE(entry) !== 0x02014b50) {
      throw new Error(`${file}: bad central directory entry ${i}`);
    }
    const method = zip.readUInt16LE(entry + 10);
    const compressedSize = zip.readUInt32LE(entry + 20);
    const nameLength = zip.readUInt16LE(entry + 28);
    const extraLength = zip.readUInt16LE(entry + 30);
    const commentLength = zip.readUInt16LE(entry + 32);
    // Zip writers on Unix keep the file's mode in the high half of the external
    // attributes.
    const mode = zip.readUInt32LE(entry + 38) >>> 16;
    const localHeader = zip.readUInt32LE(entry + 42);
    const name = zip.toString("utf8", entry + 46, entry + 46 + nameLength);
    // The local header repeats the name and has its own extra field, whose length may
    // differ from the central directory's.
    const dataStart =
      localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
    const data = zip.subarray(dataStart, dataStart + compressedSize);
    if (method === 0) {
      files.set(name, { data: Buffer.from(data), mode });
    } else if (method === 8) {
      files.set(name, { data: zlib.inflateRawSync(data), mode });
    } else {
      throw new Error(`${file}: ${name} uses compression method ${method}`);
    }
    entry += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}
