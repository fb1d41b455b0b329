/**
 * Hand-made tar entries for archives no tool writes on purpose (a Chart.yaml at the top, a name with `..`, a link
 * where Chart.yaml belongs, thousands of empty entries): USTAR headers as POSIX.1-1988 lays them out (`name` 100
 * bytes, `mode`, `uid`, `gid`, `size` and `mtime` in octal, the checksum, `typeflag`, `magic` "ustar\0" "00"), the data
 * padded to 512 bytes. Archives a tool does write are made by the tool in the tests (`helm package`, GNU tar).
 */
import * as zlib from "zlib";

const BLOCK = 512;

function octal(value: number, width: number): string {
    return `${value.toString(8).padStart(width - 1, "0")}\0`;
}

/** One entry: its header and its data, padded. `type` is the typeflag ("0" file, "2" symbolic link, "5" folder). */
export function tarEntry(name: string, data: string | Buffer = "", type = "0", link = ""): Buffer {
    const body = typeof data === "string" ? Buffer.from(data) : data;
    const header = Buffer.alloc(BLOCK);
    header.write(name, 0, 100, "utf8");
    header.write(octal(type === "5" ? 0o755 : 0o644, 8), 100, "latin1");
    header.write(octal(0, 8), 108, "latin1");
    header.write(octal(0, 8), 116, "latin1");
    header.write(octal(type === "0" ? body.length : 0, 12), 124, "latin1");
    header.write(octal(0, 12), 136, "latin1");
    header.write(" ".repeat(8), 148, "latin1");
    header.write(type, 156, "latin1");
    header.write(link, 157, 100, "utf8");
    header.write("ustar\0", 257, "latin1");
    header.write("00", 263, "latin1");
    let sum = 0;
    for (const b of header) sum += b;
    header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "latin1");
    const padded = Buffer.alloc(Math.ceil((type === "0" ? body.length : 0) / BLOCK) * BLOCK);
    if (type === "0") body.copy(padded);
    return Buffer.concat([header, padded]);
}

/** The end of a tar stream: two zero blocks. */
export const TAR_END = Buffer.alloc(2 * BLOCK);

/** A gzip-compressed tar archive of `entries`, ended properly. */
export function tgz(...entries: Buffer[]): Buffer {
    return zlib.gzipSync(Buffer.concat([...entries, TAR_END]));
}

/** A minimal Chart.yaml. */
export const chartYaml = (name: string, version: string) => `apiVersion: v2\nname: ${name}\nversion: ${version}\ndescription: test chart\n`;
