/**
 * The ownership guard as Pulumi runs it: the program run through Pulumi's own entry point with Pulumi.yaml's runtime
 * options (as `pulumi up` runs it) gives the guard's inputs and its serialized provider (`__provider`); Pulumi's
 * dynamic-provider host, started as Pulumi starts it (plain node, no TypeScript loader), evaluates that text and is
 * driven with the engine's own Create and Update requests against a loopback API server that answers as Kubernetes
 * does (PartialObjectMetadata, 404 for what is not there, label-selected lists). What it proves beyond the unit tests:
 * the serialized code runs (the closure serializer rewrites modules and classes) and reads the cluster the kubeconfig
 * names; an error's message survives the host.
 */
import * as fs from "fs";
import * as http from "http";
import type { AddressInfo } from "net";
import * as path from "path";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostedFailure, runHosted, runtimeOptionsOf } from "../../bench/lib/pulumiHost";
import { useLinearStructs } from "../../offline/mockRuntime";
import { fixture } from "../support/config";
import { unwrapSecrets } from "../support/mocks";
import { ProviderHost, ROOT, startProviderHost } from "../support/providerHost";

type Inputs = Record<string, unknown> & { __provider: string; kubeconfig: string; objects: { kind: string; name: string }[] };

const PROJECT = parse(fs.readFileSync(path.join(ROOT, "Pulumi.yaml"), "utf8")) as { main?: string; runtime?: unknown };
const URN = "urn:pulumi:dev::mara::mara:platform:Platform$pulumi-nodejs:dynamic:Resource::platform-ownership";

/** A loopback API server holding `objects` by path (their metadata), answering everything else 404 or an empty list. */
class LoopbackCluster {
    readonly requests: { path: string; accept: string; authorization: string }[] = [];
    private server!: http.Server;
    url = "";
    constructor(readonly objects: Record<string, Record<string, unknown>> = {}) {}
    async start(): Promise<this> {
        this.server = http.createServer((req, res) => {
            const url = new URL(req.url ?? "/", "http://x");
            this.requests.push({ path: url.pathname + url.search, accept: String(req.headers.accept), authorization: String(req.headers.authorization) });
            const object = this.objects[url.pathname];
            res.setHeader("content-type", "application/json");
            if (object) res.end(JSON.stringify({ kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: object }));
            else if (url.searchParams.has("labelSelector")) res.end(JSON.stringify({ kind: "PartialObjectMetadataList", apiVersion: "meta.k8s.io/v1", metadata: {}, items: [] }));
            else {
                res.statusCode = 404;
                res.end(JSON.stringify({ kind: "Status", status: "Failure", reason: "NotFound", code: 404, message: `${url.pathname} not found` }));
            }
        });
        await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
        this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
        return this;
    }
    kubeconfig(token = "guard-test-token"): string {
        return JSON.stringify({
            apiVersion: "v1",
            kind: "Config",
            clusters: [{ name: "loop", cluster: { server: this.url, "insecure-skip-tls-verify": true } }],
            users: [{ name: "u", user: { token } }],
            contexts: [{ name: "loop", context: { cluster: "loop", user: "u" } }],
            "current-context": "loop",
        });
    }
    close(): Promise<void> {
        return new Promise((r) => this.server.close(() => r()));
    }
}

let guard: Inputs;
let second: Inputs;
let host: ProviderHost;
const clusters: LoopbackCluster[] = [];
const cluster = async (objects: Record<string, Record<string, unknown>> = {}) => {
    const c = await new LoopbackCluster(objects).start();
    clusters.push(c);
    return c;
};

/** The guard's inputs pointed at `c` (the fixture's kubeconfig and context replaced), with the user's `token`. */
const on = (c: LoopbackCluster, token?: string): Inputs => ({ ...guard, kubeconfig: c.kubeconfig(token), context: "loop" });

async function guardInputs(): Promise<Inputs> {
    // The engine's side, the SDK's mock monitor in this process, answers with Structs built in one pass; the program's
    // process builds its requests with the SDK's own code, as under `pulumi up`.
    useLinearStructs();
    const config = fixture("mara-kubeconfig");
    const run = await runHosted({ dir: ROOT, main: PROJECT.main ?? ".", runtime: runtimeOptionsOf(PROJECT), config, env: config.env as Record<string, string>, recordInputs: true });
    if (run.exitCode !== 0) throw new Error(`program run failed: ${hostedFailure(run)}`);
    return unwrapSecrets(run.registrations.find((r) => r.type === "pulumi-nodejs:dynamic:Resource" && r.name === "platform-ownership")?.inputs) as Inputs;
}

beforeAll(async () => {
    guard = await guardInputs();
    second = await guardInputs();
    host = await startProviderHost("http://127.0.0.1:9", "http://127.0.0.1:9");
}, 240_000);

afterAll(async () => {
    host?.close();
    await Promise.all(clusters.map((c) => c.close()));
});

describe("the guard's serialized provider", () => {
    it("is the same text in two program runs (an unchanged stack previews no change), with no project path, TypeScript or secret", () => {
        expect(second.__provider).toBe(guard.__provider);
        expect(guard.__provider).not.toContain(ROOT);
        expect(guard.__provider).not.toMatch(/["'][^"'\s]*\.ts["']/);
        expect(guard.__provider).not.toContain(guard.kubeconfig);
        for (const [, name] of guard.__provider.matchAll(/require\("([^"]+)"\)/g)) {
            expect(name, name).not.toMatch(/^([./]|ts-node|typescript|tsx)/);
        }
    });

    it("carries the stack's identity and the names the program registers", () => {
        expect(guard.identity).toBe("mara/dev");
        expect(guard.objects.map((o) => `${o.kind} ${o.name}`)).toEqual(expect.arrayContaining(["Namespace bos", "Namespace nginx-ingress", "ClusterIssuer selfsigned-issuer", "IngressClass nginx"]));
    });
});

describe("the guard in Pulumi's dynamic-provider host", () => {
    it("creates on a cluster where every name is free, reading metadata only, with the kubeconfig's credentials", async () => {
        const c = await cluster();
        const { id } = await host.create(URN, on(c));
        expect(id).toBe("ownership");
        expect(c.requests.length).toBeGreaterThan(10);
        for (const r of c.requests) {
            expect(r.accept, r.path).toMatch(/^application\/json;as=PartialObjectMetadata(List)?;g=meta\.k8s\.io;v=v1/);
            expect(r.authorization).toBe("Bearer guard-test-token");
        }
        await expect.poll(() => host.output()).toContain("[mara ownership] ");
    });

    it("refuses a neighbour's namespace with its message, which survives the host", async () => {
        const c = await cluster({ "/api/v1/namespaces/bos": { name: "bos", uid: "u1", managedFields: [{ manager: "kubectl-create" }] } });
        await expect(host.create(URN, on(c))).rejects.toThrow(
            /The platform will not take over objects it did not create on http:\/\/127\.0\.0\.1:\d+, so it created nothing there:\n {2}- Namespace bos exists and is not the platform's \(applied by kubectl-create\); give Bank of Sirius another namespace: pulumi config set mara:siriusNamespace <name>/,
        );
    });

    it("says so when the cluster cannot be read, in its own words", async () => {
        const c = await cluster();
        const url = c.url;
        await c.close();
        clusters.splice(clusters.indexOf(c), 1);
        await expect(host.create(URN, on(c))).rejects.toThrow(
            `The platform could not check that the names it creates are free or its own, so it created nothing on the cluster: cannot reach ${url}: ECONNREFUSED`,
        );
    });

    it("diffs a preview's unknown cluster setting (one the provider was not given) as no change, and a changed list as an update", async () => {
        const c = await cluster();
        const { outs } = await host.create(URN, on(c));
        const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
        expect(await host.diff("ownership", URN, outs, { ...on(c), cluster: UNKNOWN })).toEqual({ changes: "none", replaces: [] });
        expect(await host.diff("ownership", URN, outs, { ...on(c), objects: guard.objects.slice(1) })).toEqual({ changes: "some", replaces: [] });
    });

    it("updates reading nothing when no name was added, and only the added one otherwise", async () => {
        const c = await cluster();
        const olds = on(c);
        await host.update("ownership", URN, olds, on(c, "rotated-token"));
        expect(c.requests).toEqual([]);
        const fewer = { ...olds, objects: guard.objects.filter((o) => o.name !== "selfsigned-issuer") };
        await host.update("ownership", URN, fewer, olds);
        expect(c.requests.map((r) => r.path)).toEqual(["/apis/cert-manager.io/v1/clusterissuers/selfsigned-issuer"]);
    });
});
