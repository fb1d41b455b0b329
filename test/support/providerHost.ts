/**
 * Pulumi's dynamic-provider host, started as Pulumi starts it (plain `node`, no TypeScript loader, in
 * the project directory), and a gRPC client that drives it with the engine's own requests: the
 * serialized provider travels in the `__provider` property, and the host evaluates it with
 * require-from-string. Cloud SDK packages are swapped for stand-ins by test/support/cloudShim.cjs,
 * which forwards their calls to {@link serveFakeClouds} in the test process.
 */
import { ChildProcess, spawn } from "child_process";
import * as http from "http";
import type { AddressInfo } from "net";
import * as path from "path";
import type { FakeDigitalOcean, FakeLinode } from "./fakeClouds";

/* eslint-disable @typescript-eslint/no-require-imports, @typescript-eslint/no-explicit-any */
const grpc = require("@grpc/grpc-js");
const provrpc = require("@pulumi/pulumi/proto/provider_grpc_pb");
const provproto = require("@pulumi/pulumi/proto/provider_pb");
const structproto = require("google-protobuf/google/protobuf/struct_pb");
/* eslint-enable @typescript-eslint/no-require-imports */

export const ROOT = path.join(__dirname, "..", "..");
const HOST = path.join(ROOT, "node_modules", "@pulumi", "pulumi", "cmd", "dynamic-provider", "index.js");
const SHIM = path.join(__dirname, "cloudShim.cjs");

/** What the engine learns from a Diff call. */
export interface DiffAnswer {
    changes: "unknown" | "none" | "some";
    replaces: string[];
}

/** A running host and the calls the engine makes to it. */
export interface ProviderHost {
    create(urn: string, props: Record<string, unknown>): Promise<{ id: string; outs: Record<string, unknown> }>;
    diff(id: string, urn: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<DiffAnswer>;
    update(id: string, urn: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<Record<string, unknown>>;
    delete(id: string, urn: string, props: Record<string, unknown>): Promise<void>;
    /** What the host printed after its port (the provider's console output). */
    output(): string;
    /** The host's process arguments and environment, to show nothing loads TypeScript. */
    readonly process: ChildProcess;
    close(): void;
}

/**
 * Starts the host with the cloud shim pointing at `fakeCloudUrl` for DigitalOcean and Linode, and the
 * real AWS SDK pointed at `awsEndpoint` (moto) by the SDK's own `AWS_ENDPOINT_URL`, with moto's test credentials.
 */
export async function startProviderHost(fakeCloudUrl: string, awsEndpoint: string): Promise<ProviderHost> {
    // A clean environment: no NODE_OPTIONS (no loader, no ts-node) leaks in from the test runner, and no AWS profile or credentials of the machine.
    const env = {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        MARA_FAKE_CLOUD_URL: fakeCloudUrl,
        AWS_ENDPOINT_URL: awsEndpoint,
        AWS_ACCESS_KEY_ID: "testing",
        AWS_SECRET_ACCESS_KEY: "testing",
        AWS_CONFIG_FILE: "/dev/null",
        AWS_SHARED_CREDENTIALS_FILE: "/dev/null",
    };
    const child = spawn(process.execPath, ["-r", SHIM, HOST, "127.0.0.1:1"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
    const port = await new Promise<number>((resolve, reject) => {
        child.stdout!.on("data", (d: Buffer) => {
            out += d.toString();
            const m = /^(\d+)\n/.exec(out);
            if (m) resolve(Number(m[1]));
        });
        child.on("exit", (code) => reject(new Error(`the dynamic-provider host exited (${code}) before listening:\n${err}`)));
    });
    const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const struct = (o: Record<string, unknown>) => structproto.Struct.fromJavaScript(o);
    const call = <T>(method: string, req: unknown): Promise<T> =>
        new Promise((resolve, reject) => client[method](req, (e: Error | null, resp: T) => (e ? reject(new Error(`${method}: ${e.message}\n${err}`)) : resolve(resp))));
    return {
        process: child,
        async create(urn, props) {
            const req = new provproto.CreateRequest();
            req.setUrn(urn);
            req.setProperties(struct(props));
            const resp: any = await call("create", req);
            return { id: resp.getId(), outs: resp.getProperties().toJavaScript() };
        },
        async diff(id, urn, olds, news) {
            const req = new provproto.DiffRequest();
            req.setId(id);
            req.setUrn(urn);
            req.setOlds(struct(olds));
            req.setNews(struct(news));
            const resp: any = await call("diff", req);
            const changes = ({ 0: "unknown", 1: "none", 2: "some" } as const)[resp.getChanges() as 0 | 1 | 2];
            return { changes, replaces: resp.getReplacesList() };
        },
        async update(id, urn, olds, news) {
            const req = new provproto.UpdateRequest();
            req.setId(id);
            req.setUrn(urn);
            req.setOlds(struct(olds));
            req.setNews(struct(news));
            const resp: any = await call("update", req);
            return resp.getProperties().toJavaScript();
        },
        async delete(id, urn, props) {
            const req = new provproto.DeleteRequest();
            req.setId(id);
            req.setUrn(urn);
            req.setProperties(struct(props));
            await call("delete", req);
        },
        output: () => out.replace(/^\d+\n/, ""),
        close() {
            client.close();
            child.kill();
        },
    };
}

/** The fake clouds the shim forwards to, over HTTP on a free local port. */
export async function serveFakeClouds(world: { doApi?: FakeDigitalOcean; linode?: FakeLinode }): Promise<{ url: string; close(): Promise<void> }> {
    const server = http.createServer((req, res) => {
        let body = "";
        req.on("data", (c: Buffer) => (body += c.toString()));
        req.on("end", () => {
            const p = JSON.parse(body || "{}") as Record<string, any>;
            let answer: { result?: unknown; error?: unknown };
            try {
                if (req.url === "/linode") answer = { result: world.linode!.call(p.name, p.args) };
                else if (req.url === "/do") answer = { result: world.doApi!.answer(p.method, p.url, p.authorization ?? undefined) };
                else answer = { error: { message: `no fake cloud at ${req.url}` } };
            } catch (e) {
                const x = e as Error & Record<string, unknown>;
                answer = { error: { message: x.message, name: x.name, Code: x.Code, response: x.response } };
            }
            res.writeHead(200, { "content-type": "application/json" });
            res.end(JSON.stringify(answer));
        });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}
