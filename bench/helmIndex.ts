/**
 * Why `mara outdated` reads Helm repository indexes with js-yaml and not the `yaml` package: both parse
 * the same generated index (the layout `helm repo index` writes, with the annotations public charts
 * carry) in fresh processes, with the failsafe schema the command uses; the table gives time and peak
 * memory side by side. Run: npx ts-node -T bench/helmIndex.ts
 *
 * Environment:
 *   BENCH_INDEX_MB      approximate size of the generated index in MB (default 20; public indexes reach 15–50)
 *   BENCH_REPEAT        fresh processes per parser; the median is reported (default 3)
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { median, runChild } from "./lib/child";

const TARGET_MB = Number(process.env.BENCH_INDEX_MB ?? 20);
const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 3));

/** One chart version as public repositories list it. */
function entry(chart: string, version: string): string {
    return [
        "  - annotations:",
        "      artifacthub.io/changes: |",
        "        - kind: changed",
        `          description: Update dependencies for ${version}`,
        "      artifacthub.io/license: Apache-2.0",
        "    apiVersion: v2",
        `    appVersion: v${version}`,
        '    created: "2026-10-01T12:00:00.123456789Z"',
        "    dependencies:",
        "    - condition: crds.enabled",
        "      name: crds",
        '      repository: ""',
        "      version: 0.0.0",
        "    description: A chart with the metadata public charts carry, to give the index a realistic shape",
        `    digest: ${"ab".repeat(32)}`,
        "    home: https://example.com/charts",
        "    keywords:",
        "    - monitoring",
        "    kubeVersion: '>=1.25.0-0'",
        "    maintainers:",
        "    - email: maintainer@example.com",
        "      name: maintainer",
        `    name: ${chart}`,
        "    type: application",
        "    urls:",
        `    - https://example.com/releases/download/${chart}-${version}/${chart}-${version}.tgz`,
        `    version: ${version}`,
    ].join("\n");
}

function generateIndex(targetBytes: number): string {
    const parts = ["apiVersion: v1", "entries:"];
    let size = 0;
    for (let c = 0; size < targetBytes; c++) {
        parts.push(`  chart-${c}:`);
        for (let v = 0; v < 400 && size < targetBytes; v++) {
            const e = entry(`chart-${c}`, `${Math.floor(v / 20)}.${v % 20}.0`);
            parts.push(e);
            size += e.length + 1;
        }
    }
    parts.push('generated: "2026-10-01T12:00:00Z"', "");
    return parts.join("\n");
}

/** A child that parses the file with one library and reports time and peak memory. */
function parseScript(lib: "yaml" | "js-yaml", file: string): string[] {
    const parse =
        lib === "yaml"
            ? `require("yaml").parse(text, { schema: "failsafe" })`
            : `(() => { const y = require("js-yaml"); return y.load(text, { schema: y.FAILSAFE_SCHEMA }); })()`;
    const code = [
        `const text = require("fs").readFileSync(${JSON.stringify(file)}, "utf8");`,
        `const t = performance.now();`,
        `const doc = ${parse};`,
        `const ms = performance.now() - t;`,
        `if (Object.keys(doc.entries).length === 0) throw new Error("parsed nothing");`,
        `process.stdout.write("\\nBENCH_RESULT " + JSON.stringify({ ms, maxRssMb: process.resourceUsage().maxRSS / 1024 }) + "\\n");`,
    ].join("\n");
    return ["-e", code];
}

function main(): void {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-bench-index-"));
    const file = path.join(dir, "index.yaml");
    try {
        const text = generateIndex(TARGET_MB * 1e6);
        fs.writeFileSync(file, text);
        const mb = (Buffer.byteLength(text) / 1e6).toFixed(1);
        const measure = (lib: "yaml" | "js-yaml") => {
            const runs = Array.from({ length: REPEAT }, () => runChild<{ ms: number; maxRssMb: number }>(parseScript(lib, file)));
            return { ms: median(runs.map((r) => r.ms)), rss: median(runs.map((r) => r.maxRssMb)) };
        };
        const y = measure("yaml");
        const j = measure("js-yaml");
        console.log(`Helm index of ${mb} MB, failsafe schema, median of ${REPEAT} fresh processes (Node ${process.version}):`);
        console.log("");
        console.log("| parser | parse time (ms) | peak memory (MB) |");
        console.log("|---|---|---|");
        console.log(`| yaml | ${y.ms.toFixed(0)} | ${y.rss.toFixed(0)} |`);
        console.log(`| js-yaml | ${j.ms.toFixed(0)} | ${j.rss.toFixed(0)} |`);
        console.log(`| **yaml ÷ js-yaml** | **${(y.ms / j.ms).toFixed(1)}** | **${(y.rss / j.rss).toFixed(1)}** |`);
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
}

main();
