/**
 * The Kibana setup Job's script, run by a real shell and curl against a stand-in Kibana on the loopback address:
 * it waits while Kibana refuses, imports the saved objects with overwrite (fixed ids, so a second run converges),
 * authenticates with the password from its environment without putting it on a command line, and gives up with
 * a message at its deadline. The objects themselves are checked for what the import API and the log records need.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as http from "http";
import type { AddressInfo } from "net";
import * as os from "os";
import * as path from "path";
import { afterEach, describe, expect, it } from "vitest";
import { KIBANA_OBJECT_IDS, KIBANA_SETUP_SCRIPT, kibanaSavedObjects } from "../../components/logstore/kibanaSetup";
import { ACCESS_LOG_FIELDS } from "../../components/logFormats";

interface Seen {
    method: string;
    url: string;
    headers: http.IncomingHttpHeaders;
    body: string;
}

/** A stand-in Kibana: answers each request with the next reply, recording what it received. */
async function kibana(replies: { status: number; body: string }[]) {
    const seen: Seen[] = [];
    const server = http.createServer((req, res) => {
        let body = "";
        req.on("data", (c: Buffer) => (body += c.toString()));
        req.on("end", () => {
            seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
            const reply = replies[Math.min(seen.length - 1, replies.length - 1)]!;
            res.writeHead(reply.status, { "content-type": "application/json" }).end(reply.body);
        });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { url, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** Runs the script as the Job does (files in SETUP_DIR), with a short wait. */
function runScript(kibanaUrl: string, waitSeconds: number): Promise<{ code: number; stdout: string; stderr: string }> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kibana-setup-"));
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, "setup.sh"), KIBANA_SETUP_SCRIPT);
    fs.writeFileSync(path.join(dir, "objects.ndjson"), kibanaSavedObjects("kubernetes-*", ACCESS_LOG_FIELDS));
    const env = { PATH: process.env.PATH!, KIBANA_URL: kibanaUrl, WAIT_SECONDS: String(waitSeconds), RETRY_SECONDS: "0.2", ELASTIC_PASSWORD: "s3cret", SETUP_DIR: dir, TMPDIR: dir };
    return new Promise((resolve) => {
        const child = spawn("sh", [path.join(dir, "setup.sh")], { env });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
        child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
        child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
}

const UNAVAILABLE = { status: 503, body: '{"statusCode":503,"error":"Service Unavailable","message":"Kibana server is not ready yet"}' };
const IMPORTED = { status: 200, body: '{"success":true,"successCount":3,"successResults":[]}' };

describe("the Kibana setup script", () => {
    it("waits while Kibana is not ready, then imports the objects with overwrite, authenticated", async () => {
        const k = await kibana([UNAVAILABLE, UNAVAILABLE, IMPORTED]);
        try {
            const r = await runScript(k.url, 30);
            expect(r.code, r.stderr).toBe(0);
            expect(r.stdout).toContain("waiting for Kibana");
            expect(r.stdout).toContain("(attempt 3)");
            expect(k.seen).toHaveLength(3);
            const last = k.seen[2]!;
            expect(last.method).toBe("POST");
            expect(last.url).toBe("/api/saved_objects/_import?overwrite=true");
            expect(last.headers["kbn-xsrf"]).toBe("true");
            expect(last.headers.authorization).toBe(`Basic ${Buffer.from("elastic:s3cret").toString("base64")}`);
            expect(last.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
            expect(last.body).toContain('name="file"; filename="objects.ndjson"');
            expect(last.body).toContain(`"id":"${KIBANA_OBJECT_IDS.dataView}"`);
        } finally {
            await k.close();
        }
    });

    it("runs again to the same result: a second run imports the same objects with the same ids", async () => {
        const k = await kibana([IMPORTED]);
        try {
            expect((await runScript(k.url, 30)).code).toBe(0);
            expect((await runScript(k.url, 30)).code).toBe(0);
            // The uploaded file, without the multipart boundaries curl draws at random.
            const file = (body: string) => body.slice(body.indexOf("\r\n\r\n", body.indexOf('filename="objects.ndjson"')) + 4, body.lastIndexOf("\r\n--"));
            expect(file(k.seen[1]!.body)).toBe(file(k.seen[0]!.body));
            expect(file(k.seen[0]!.body)).toBe(kibanaSavedObjects("kubernetes-*", ACCESS_LOG_FIELDS));
            expect(k.seen.map((q) => q.url)).toEqual(["/api/saved_objects/_import?overwrite=true", "/api/saved_objects/_import?overwrite=true"]);
        } finally {
            await k.close();
        }
    });

    it("keeps trying while Kibana answers but refuses the objects, shows why, and fails at its deadline", async () => {
        const refused = { status: 200, body: '{"success":false,"successCount":0,"errors":[{"id":"mara-logs","error":{"type":"unknown"}}]}' };
        const k = await kibana([refused]);
        try {
            // Three seconds, not one: the deadline counts whole seconds of `date +%s`, so with one a slow first
            // attempt on a busy machine can end past it and leave no second attempt to see.
            const r = await runScript(k.url, 3);
            expect(r.code).toBe(1);
            expect(r.stdout).toContain('"success":false');
            expect(r.stderr).toMatch(/did not accept the saved objects within 3 s \(\d+ attempts\)/);
            expect(k.seen.length).toBeGreaterThan(1);
        } finally {
            await k.close();
        }
    }, 120_000);

    it("fails at its deadline when Kibana never answers", async () => {
        const k = await kibana([UNAVAILABLE]);
        await k.close();
        const r = await runScript(k.url, 1);
        expect(r.code).toBe(1);
        expect(r.stderr).toContain(`Kibana at ${k.url} did not accept the saved objects within 1 s`);
    });

    it("hands the password to curl on standard input only, never as an argument", () => {
        const uses = KIBANA_SETUP_SCRIPT.split("\n").filter((l) => l.includes("ELASTIC_PASSWORD"));
        expect(uses).toEqual([`  if printf 'user = "elastic:%s"\\n' "$ELASTIC_PASSWORD" | curl --silent --show-error --fail --config - \\`]);
    });
});

describe("the saved objects", () => {
    const objects = kibanaSavedObjects("kubernetes-*", ACCESS_LOG_FIELDS)
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { type: string; id: string; attributes: Record<string, unknown>; references: { name: string; type: string; id: string }[] });

    it("are a data view of the log indices, a saved search of the access log and a dashboard, with fixed ids", () => {
        expect(objects.map((o) => [o.type, o.id])).toEqual([
            ["index-pattern", "mara-logs"],
            ["search", "mara-nginx-access"],
            ["dashboard", "mara-nginx-traffic"],
        ]);
        expect(objects[0]!.attributes).toMatchObject({ title: "kubernetes-*", timeFieldName: "@timestamp" });
    });

    it("resolve every reference to another of them", () => {
        const ids = new Set(objects.map((o) => `${o.type}:${o.id}`));
        for (const o of objects) for (const r of o.references) expect(ids, `${o.id} → ${r.type}:${r.id}`).toContain(`${r.type}:${r.id}`);
        const search = objects[1]!;
        const source = JSON.parse((search.attributes.kibanaSavedObjectMeta as { searchSourceJSON: string }).searchSourceJSON);
        expect(search.references.map((r) => r.name)).toContain(source.indexRefName);
        const panels = JSON.parse(objects[2]!.attributes.panelsJSON as string) as { panelRefName: string }[];
        expect(objects[2]!.references.map((r) => r.name)).toEqual(panels.map((p) => p.panelRefName));
    });

    it("select and show the access log's fields as the parser stores them (under nginx.)", () => {
        const search = objects[1]!;
        const source = JSON.parse((search.attributes.kibanaSavedObjectMeta as { searchSourceJSON: string }).searchSourceJSON);
        expect(source.query).toEqual({ query: "nginx.status : *", language: "kuery" });
        expect(search.attributes.columns).toEqual(["kubernetes.pod_name", ...ACCESS_LOG_FIELDS.map((f) => `nginx.${f}`)]);
    });
});
