/**
 * A `pulumi up` run directly on a stack with a Helm release stuck from an interrupted run stops, before anything is
 * deployed, with the command that repairs it (components/ownership/stuckReleases.ts), offline: Helm's lock read from
 * its records' metadata (contracts/helmRecords.ts), and the check against an API server on loopback answering as the
 * real one does for a metadata-only list. test/engine/interrupted.test.ts runs it with the real engine after a kill.
 */
import * as http from "http";
import type { AddressInfo } from "net";
import * as pulumi from "@pulumi/pulumi";
import { afterEach, describe, expect, it } from "vitest";
import { ReleaseRevision, revisionOfRecord, stuckRevisions } from "../../contracts/helmRecords";
import { kubeconfigReader } from "../../components/ownership/clusterReader";
import { deploysWithEngine, findStuckReleases, refuseStuckReleases, StuckCheckIo } from "../../components/ownership/stuckReleases";

/** A record's metadata as Helm's Secrets driver writes it (helm/helm pkg/storage/driver/secrets.go, newSecretsObject). */
const meta = (name: string, namespace: string, version: number, status: string) => ({
    name: `sh.helm.release.v1.${name}.v${version}`,
    namespace,
    uid: `uid-${name}-${version}`,
    resourceVersion: String(100 + version),
    labels: { name, owner: "helm", status, version: String(version) },
});
const rev = (name: string, namespace: string, version: number, status: string): ReleaseRevision => revisionOfRecord(meta(name, namespace, version, status))!;

describe("Helm's lock, from its records' metadata", () => {
    it("reads a record's name and labels, and takes nothing that is not Helm's record of the release it names", () => {
        expect(rev("kic", "nginx-ingress", 2, "pending-upgrade")).toEqual({ name: "kic", namespace: "nginx-ingress", revision: 2, status: "pending-upgrade", secret: "sh.helm.release.v1.kic.v2", uid: "uid-kic-2", resourceVersion: "102" });
        const ok = meta("kic", "ns", 1, "pending-install");
        for (const broken of [
            { ...ok, labels: { ...ok.labels, owner: "someone" } },
            { ...ok, name: "sh.helm.release.v1.other.v1" },
            { ...ok, labels: { ...ok.labels, version: "01" } },
            { ...ok, labels: { ...ok.labels, version: "9999999999" } },
            { ...ok, labels: { ...ok.labels, name: undefined } },
            { ...ok, labels: [] },
            { ...ok, namespace: 5 },
            null,
            [],
            "sh.helm.release.v1.kic.v1",
        ]) {
            expect(revisionOfRecord(broken)).toBeUndefined();
        }
    });

    it("is the newest revision of a release, when it is pending: an older pending one a rollback superseded is not", () => {
        const revisions = [
            rev("kic", "nginx-ingress", 1, "deployed"),
            rev("kic", "nginx-ingress", 3, "pending-upgrade"),
            rev("kic", "nginx-ingress", 2, "superseded"),
            rev("certmgr", "cert-manager", 1, "pending-install"),
            rev("prometheus", "prometheus", 2, "pending-upgrade"),
            rev("prometheus", "prometheus", 3, "deployed"),
            rev("eck-operator", "logstore", 1, "failed"),
            rev("statsd", "prometheus", 2, "pending-rollback"),
            rev("statsd", "prometheus", 1, "deployed"),
        ];
        expect(stuckRevisions(revisions).map((r) => `${r.namespace}/${r.name} v${r.revision} ${r.status}`)).toEqual([
            "nginx-ingress/kic v3 pending-upgrade",
            "cert-manager/certmgr v1 pending-install",
            "prometheus/statsd v2 pending-rollback",
        ]);
        expect(stuckRevisions([])).toEqual([]);
    });
});

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const servers: http.Server[] = [];

async function serve(handler: Handler): Promise<string> {
    const server = http.createServer(handler);
    server.keepAliveTimeout = 1;
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
    for (const s of servers.splice(0)) {
        s.closeAllConnections();
        await new Promise<void>((r) => s.close(() => r()));
    }
});

const kubeconfig = (server: string) =>
    JSON.stringify({
        apiVersion: "v1",
        kind: "Config",
        clusters: [{ name: "c", cluster: { server, "insecure-skip-tls-verify": true } }],
        users: [{ name: "u", user: { token: "secret-token-123" } }],
        contexts: [{ name: "ctx", context: { cluster: "c", user: "u" } }],
        "current-context": "ctx",
    });

/**
 * An API server holding `records` (metadata) in Helm's Secrets store and none in its ConfigMaps store, answering a
 * list with the `owner=helm,name=<release>` selector as a `PartialObjectMetadataList` (the API server's answer to
 * `Accept: application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1`), and recording what it was asked.
 */
function apiServer(records: ReturnType<typeof meta>[], asked: string[], extra: (ns: string) => unknown[] = () => []): Handler {
    return (req, res) => {
        const url = new URL(req.url!, "http://x");
        asked.push(`${req.headers.accept?.includes("as=PartialObjectMetadataList") ? "metadata" : "full"} ${url.pathname}?${url.searchParams.get("labelSelector")}`);
        const m = /^\/api\/v1\/namespaces\/([^/]+)\/(secrets|configmaps)$/.exec(url.pathname);
        const name = /^owner=helm,name=(.+)$/.exec(url.searchParams.get("labelSelector") ?? "")?.[1];
        if (!m || !name) {
            res.writeHead(404, { "content-type": "application/json" });
            res.end(JSON.stringify({ kind: "Status", code: 404 }));
            return;
        }
        const items = m[2] === "configmaps" ? [] : [...records.filter((r) => r.namespace === m[1] && r.labels.name === name), ...extra(m[1]!)];
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ kind: "PartialObjectMetadataList", apiVersion: "meta.k8s.io/v1", metadata: {}, items: items.map((metadata) => ({ kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata })) }));
    };
}

const RELEASES = [
    { name: "certmgr", namespace: "cert-manager" },
    { name: "kic", namespace: "nginx-ingress" },
];

/** The check's reads and warnings, kept for the assertions. */
function io(warnings: string[]): StuckCheckIo {
    return { reader: (access) => kubeconfigReader(access, { totalMs: 2_000, answerBytes: 64 * 1024, concurrency: 2 }), warn: (m) => warnings.push(m) };
}

describe("a pulumi up run directly on a stack with a stuck release", () => {
    it("stops with every stuck release and the mara command that repairs it, as a RunError (no stack trace), having read only metadata", async () => {
        const asked: string[] = [];
        const server = await serve(apiServer([meta("certmgr", "cert-manager", 1, "pending-install"), meta("kic", "nginx-ingress", 1, "deployed"), meta("kic", "nginx-ingress", 2, "pending-upgrade")], asked));
        const warnings: string[] = [];
        const failure = await refuseStuckReleases({ kubeconfig: kubeconfig(server) }, RELEASES, "dev", io(warnings)).then(
            () => undefined,
            (e: unknown) => e,
        );
        expect(pulumi.RunError.isInstance(failure), String(failure)).toBe(true);
        const message = (failure as Error).message;
        // As the SDK does to the error that rejects an input, once per property it passes through: the message stays.
        (failure as Error).message = `error serializing property "kubeconfig": ${message}`;
        expect((failure as Error).message).toBe(message);
        expect(message).toContain(`Helm release(s) of this stack on ${server} are stuck from an interrupted run`);
        expect(message).toContain("  - cert-manager/certmgr is stuck in pending-install (revision 1)\n");
        expect(message).toContain("  - nginx-ingress/kic is stuck in pending-upgrade (revision 2)\n");
        expect(message).toContain("Run `npx mara up --stack dev`: it repairs what an interrupted run left");
        expect(message).toContain('"An interrupted run" in docs/deploy.md');
        expect(message).not.toContain("secret-token-123");
        expect(warnings).toEqual([]);
        // Both of Helm's stores, each release's records only, metadata only: no Secret's data crosses the wire.
        expect(asked.sort()).toEqual([
            "metadata /api/v1/namespaces/cert-manager/configmaps?owner=helm,name=certmgr",
            "metadata /api/v1/namespaces/cert-manager/secrets?owner=helm,name=certmgr",
            "metadata /api/v1/namespaces/nginx-ingress/configmaps?owner=helm,name=kic",
            "metadata /api/v1/namespaces/nginx-ingress/secrets?owner=helm,name=kic",
        ]);
    });

    it("lets the run go on when every release is deployed, failed or new, and ignores records the answer was not asked for", async () => {
        const server = await serve(
            apiServer([meta("kic", "nginx-ingress", 1, "pending-upgrade"), meta("kic", "nginx-ingress", 2, "deployed")], [], (ns) => [
                // Another release's stuck record, and a lookalike that is not Helm's: neither is the release asked for.
                meta("someone-else", ns, 1, "pending-install"),
                { ...meta("certmgr", ns, 1, "pending-install"), labels: { name: "certmgr", owner: "me", status: "pending-install", version: "1" } },
            ]),
        );
        const warnings: string[] = [];
        await expect(refuseStuckReleases({ kubeconfig: kubeconfig(server) }, RELEASES, "dev", io(warnings))).resolves.toBeUndefined();
        expect(warnings).toEqual([]);
        const reader = kubeconfigReader({ kubeconfig: kubeconfig(server) });
        expect(await findStuckReleases(reader, RELEASES)).toEqual([]);
    });

    it("reads nothing when the platform installs no release", async () => {
        const asked: string[] = [];
        const server = await serve(apiServer([], asked));
        await refuseStuckReleases({ kubeconfig: kubeconfig(server) }, [], "dev", io([]));
        expect(asked).toEqual([]);
    });

    it("warns, naming the repair, and lets the run go on when the cluster cannot be read: the check only names a repair", async () => {
        const refusing = await serve((_req, res) => {
            res.writeHead(403, { "content-type": "application/json" });
            res.end(JSON.stringify({ kind: "Status", message: "secrets is forbidden: User cannot list resource" }));
        });
        const silent = await serve(() => undefined);
        for (const server of [refusing, silent, "http://127.0.0.1:1"]) {
            const warnings: string[] = [];
            const started = Date.now();
            await expect(refuseStuckReleases({ kubeconfig: kubeconfig(server) }, RELEASES, "dev", io(warnings))).resolves.toBeUndefined();
            // Far above the 2 s deadline: a check that hangs fails here, a loaded machine does not.
            expect(Date.now() - started).toBeLessThan(20_000);
            expect(warnings).toHaveLength(1);
            expect(warnings[0]).toMatch(/^The platform could not check its Helm releases for a stuck install or upgrade of an interrupted run \(.+\); deploying anyway\. If Helm then says "another operation \(install\/upgrade\/rollback\) is in progress", run: npx mara up --stack dev$/);
            expect(warnings[0]).not.toContain("secret-token-123");
        }
    });

    it("does not run in a preview or under the test mocks, which have no engine", async () => {
        expect(deploysWithEngine()).toBe(false);
        await pulumi.runtime.setMocks({ newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs }), call: () => ({}) }, "mara", "dev", false);
        expect(pulumi.runtime.isDryRun()).toBe(false);
        expect(deploysWithEngine()).toBe(false);
    });
});
