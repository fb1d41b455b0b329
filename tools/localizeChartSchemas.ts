/**
 * Makes a folder of chart archives installable without a network (`mara:chartArchiveDir`).
 *
 * Helm validates a release's values against the chart's `values.schema.json` at install, and a schema may refer to
 * other schemas by URL: nginx-ingress 2.x refers to Kubernetes' definitions on raw.githubusercontent.com 44 times.
 * Helm fetches them during `pulumi up`; without a network the install fails ("failing loading https://…"), and
 * Pulumi's `helm.v3.Release` has no way to pass Helm's `--skip-schema-validation`. This rewrites each archive whose
 * schemas have remote `$ref`s so that each of those becomes an empty schema (accepting anything, as the render
 * tier checks them, test/render/tier.ts), keeps every local rule, and records the new digest in SHA256SUMS.
 * What the remote definitions described (containers, probes, Services) is still checked by the API server.
 *
 *   node -r sucrase/register/ts tools/localizeChartSchemas.ts <folder>
 */
import { execFileSync } from "child_process";
import * as crypto from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { checksumLine, readChecksumList } from "../config/sha256sums";
import { isMap } from "../contracts/kubeObject";

/** The schema without remote `$ref`s; `found` collects the references removed. */
export function withoutRemoteRefs(schema: unknown, found: string[] = []): unknown {
    if (Array.isArray(schema)) return schema.map((s) => withoutRemoteRefs(s, found));
    if (!isMap(schema)) return schema;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(schema)) {
        if (k === "$ref" && typeof v === "string" && !v.startsWith("#")) {
            found.push(v);
            continue;
        }
        out[k] = withoutRemoteRefs(v, found);
    }
    return out;
}

function schemaFiles(dir: string): string[] {
    const out: string[] = [];
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) out.push(...schemaFiles(p));
        else if (e.name === "values.schema.json") out.push(p);
    }
    return out;
}

/** What was rewritten: each archive and the number of remote references it no longer has. */
export interface Localized {
    readonly archive: string;
    readonly removedRefs: number;
}

/** Rewrites every archive in `dir` that has remote schema references, and SHA256SUMS with it. */
export function localizeChartArchives(dir: string): Localized[] {
    const sumsFile = path.join(dir, "SHA256SUMS");
    const list = fs.existsSync(sumsFile) ? readChecksumList(fs.readFileSync(sumsFile)) : undefined;
    if (list && list.problems.length > 0) {
        throw new Error(`${sumsFile}: ${list.problems.map((p) => (p.line ? `line ${p.line}: ${p.problem}` : p.problem)).join("; ")}; write it again with sha256sum *.tgz > SHA256SUMS first`);
    }
    const sums = new Map(list?.sums ?? []);
    const done: Localized[] = [];
    for (const name of fs.readdirSync(dir).filter((f) => f.endsWith(".tgz")).sort()) {
        const archive = path.join(dir, name);
        const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "localize-chart-"));
        try {
            execFileSync("tar", ["-xzf", archive, "-C", tmp]);
            let removed = 0;
            for (const file of schemaFiles(tmp)) {
                const found: string[] = [];
                const schema = withoutRemoteRefs(JSON.parse(fs.readFileSync(file, "utf8")), found);
                if (!found.length) continue;
                fs.writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
                removed += found.length;
            }
            if (!removed) continue;
            const top = fs.readdirSync(tmp);
            execFileSync("tar", ["-czf", archive, "-C", tmp, ...top]);
            sums.set(name, crypto.createHash("sha256").update(fs.readFileSync(archive)).digest("hex"));
            done.push({ archive, removedRefs: removed });
        } finally {
            fs.rmSync(tmp, { recursive: true, force: true });
        }
    }
    if (done.length) fs.writeFileSync(sumsFile, [...sums].map(([f, d]) => checksumLine(f, d)).join("\n") + "\n");
    return done;
}

if (require.main === module) {
    const dir = process.argv[2];
    if (!dir || !fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
        console.error("usage: node -r sucrase/register/ts tools/localizeChartSchemas.ts <folder of chart archives>");
        process.exit(2);
    }
    const done = localizeChartArchives(dir);
    for (const d of done) console.log(`${path.basename(d.archive)}: ${d.removedRefs} remote schema reference(s) removed`);
    if (!done.length) console.log("no archive refers to a remote schema; nothing changed");
}
