/**
 * The mock runs' Struct builders side by side: google-protobuf's own `Struct.fromJavaScript` against the one-pass
 * builders of offline/mockRuntime.ts (`useLinearStructs`), on the CRDs the program registers (each chart's set from
 * components/crds), alternating in one process so both see the same machine. Prints each set's median time per build
 * and the ratio, for the build alone and with the serialization the mock monitor's gRPC adds. Usage: `npm run bench:structs [-- rounds]` (default 5).
 */
import * as fs from "fs";
import * as path from "path";
import { performance } from "perf_hooks";
import { useLinearStructs, withLibraryStructs } from "../offline/mockRuntime";
import { median } from "./lib/child";
import { fmt, textTable } from "./lib/table";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const structproto = require("google-protobuf/google/protobuf/struct_pb") as { Struct: { fromJavaScript(o: object): { serializeBinary(): Uint8Array } } };
const CRDS = path.join(__dirname, "..", "components", "crds");
const rounds = Number(process.argv[2] ?? 5);
if (!Number.isInteger(rounds) || rounds < 1 || rounds > 1000) {
    console.error(`rounds: ${process.argv[2]} is not a whole number from 1 to 1000`);
    process.exit(2);
}

useLinearStructs();

/** Milliseconds to build one Struct per CRD of the set, and to serialize it too (the same for both builders). */
function time(crds: object[], serialize: boolean): number {
    const start = performance.now();
    for (const crd of crds) {
        const struct = structproto.Struct.fromJavaScript(crd);
        if (serialize) struct.serializeBinary();
    }
    return performance.now() - start;
}

const rows: (string | number)[][] = [["CRD set", "CRDs", "KB of JSON", "step", "library ms (median)", "one pass ms (median)", "library ÷ one pass"]];
for (const file of fs.readdirSync(CRDS).filter((f) => f.endsWith(".json")).sort()) {
    const crds = (JSON.parse(fs.readFileSync(path.join(CRDS, file), "utf8")) as { crds: object[] }).crds;
    const kb = Buffer.byteLength(JSON.stringify(crds)) / 1024;
    for (const serialize of [false, true]) {
        const library: number[] = [];
        const linear: number[] = [];
        for (let i = 0; i < rounds; i++) {
            library.push(withLibraryStructs(() => time(crds, serialize)));
            linear.push(time(crds, serialize));
        }
        const step = serialize ? "build + serialize" : "build";
        rows.push([file.replace(/\.json$/, ""), crds.length, fmt(kb, 0), step, fmt(median(library)), fmt(median(linear)), `${fmt(median(library) / median(linear))}×`]);
    }
}
console.log(textTable(rows));
console.log(`${rounds} rounds each, alternating, one process; load average ${fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
