/**
 * What `mara up` reads of an interrupted run and what it decides to repair (cli/operation/recovery/interrupted.ts), offline:
 * the state's pending operations and Helm releases, Helm's release records, the repair of each stuck release, and
 * the self-managed backend's stale locks. test/engine/interrupted.test.ts runs the same against the real engine.
 */
import { describe, expect, it } from "vitest";
import { allStale, describePending, describeRepair, describeUnrecorded, locksNamed, ownedReleases, planReleaseRepairs, planUnrecorded, readState, refuseUnrecorded, ReleaseRevision, revisionOf } from "../../cli/operation/recovery/interrupted";

const RELEASE = "kubernetes:helm.sh/v3:Release";
const urn = (type: string, name: string) => `urn:pulumi:dev::mara::mara:platform:Platform$${type}::${name}`;

/** A Helm release record as Helm's Secrets driver writes it (helm/helm pkg/storage/driver/secrets.go). */
function record(name: string, namespace: string, version: number, status: string, extra: Record<string, unknown> = {}) {
    return {
        apiVersion: "v1",
        kind: "Secret",
        type: "helm.sh/release.v1",
        metadata: { name: `sh.helm.release.v1.${name}.v${version}`, namespace, uid: `uid-${name}-${version}`, resourceVersion: String(100 + version), labels: { name, owner: "helm", status, version: String(version) } },
        ...extra,
    };
}
const rev = (name: string, namespace: string, version: number, status: string): ReleaseRevision => revisionOf(record(name, namespace, version, status))!;

describe("the state of an interrupted run", () => {
    it("lists the pending operations and the releases named by resources and pending creates", () => {
        const state = readState({
            version: 3,
            deployment: {
                resources: [
                    { urn: urn(RELEASE, "kic-release"), type: RELEASE, inputs: { name: "kic", namespace: "nginx-ingress" }, outputs: { name: "kic", namespace: "nginx-ingress" } },
                    { urn: urn("kubernetes:core/v1:Namespace", "ns"), type: "kubernetes:core/v1:Namespace", outputs: { metadata: { name: "x" } } },
                    { urn: urn(RELEASE, "old"), type: RELEASE, delete: true, outputs: { name: "old", namespace: "gone" } },
                ],
                pending_operations: [{ resource: { urn: urn(RELEASE, "certmgr-release"), type: RELEASE, inputs: { name: "certmgr", namespace: "cert-manager" } }, type: "creating" }],
            },
        });
        expect(state.pending).toEqual([{ urn: urn(RELEASE, "certmgr-release"), type: RELEASE, operation: "creating", release: { name: "certmgr", namespace: "cert-manager" } }]);
        expect(state.releases).toEqual([
            { name: "certmgr", namespace: "cert-manager" },
            { name: "kic", namespace: "nginx-ingress" },
        ]);
        expect(state.releaseUrns).toEqual({ "nginx-ingress/kic": urn(RELEASE, "kic-release") });
        expect(describePending(state.pending[0]!)).toBe(`${RELEASE} "certmgr-release" was being created when the last run stopped`);
    });

    it("names the CRDs the stack applies itself, from its resources and its pending creates, not another kind's or a deleted one's", () => {
        const CRD_PATCH = "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinitionPatch";
        const state = readState({
            deployment: {
                resources: [
                    { urn: urn(CRD_PATCH, "a"), type: CRD_PATCH, inputs: { metadata: { name: "virtualservers.k8s.nginx.org" } }, outputs: { metadata: { name: "virtualservers.k8s.nginx.org" } } },
                    { urn: urn(CRD_PATCH, "b"), type: CRD_PATCH, delete: true, outputs: { metadata: { name: "gone.example.com" } } },
                    { urn: urn("kubernetes:core/v1:ConfigMap", "c"), type: "kubernetes:core/v1:ConfigMap", outputs: { metadata: { name: "not-a-crd" } } },
                    { urn: urn(CRD_PATCH, "d"), type: CRD_PATCH, outputs: { metadata: { name: { ciphertext: "x" } } } },
                ],
                pending_operations: [{ resource: { urn: urn(CRD_PATCH, "e"), type: CRD_PATCH, inputs: { metadata: { name: "virtualserverroutes.k8s.nginx.org" } } }, type: "creating" }],
            },
        });
        expect(state.crds).toEqual(["virtualserverroutes.k8s.nginx.org", "virtualservers.k8s.nginx.org"]);
    });

    it("skips what is not shaped as the engine writes it, and never names a release whose name or namespace is a secret or unknown", () => {
        for (const doc of [null, 7, "text", [], {}, { deployment: null }, { deployment: { pending_operations: "x", resources: {} } }]) expect(readState(doc)).toEqual({ pending: [], releases: [], namespaces: [], releaseUrns: {}, crds: [] });
        const state = readState({
            deployment: {
                pending_operations: [null, { resource: null }, { resource: { urn: 5, type: RELEASE } }, { resource: { urn: urn(RELEASE, "r"), type: RELEASE, inputs: { name: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "x" }, namespace: "ns" } } }],
                resources: [{ type: RELEASE, inputs: { name: "", namespace: "ns" } }, { type: RELEASE, outputs: { name: "a" } }],
            },
        });
        expect(state.pending).toEqual([{ urn: urn(RELEASE, "r"), type: RELEASE, operation: "unknown" }]);
        expect(state.releases).toEqual([]);
    });
});

describe("Helm's release records", () => {
    it("reads a record Helm wrote, with what a removal's preconditions need", () => {
        expect(revisionOf(record("kic", "nginx-ingress", 2, "pending-upgrade"))).toEqual({
            name: "kic",
            namespace: "nginx-ingress",
            revision: 2,
            status: "pending-upgrade",
            secret: "sh.helm.release.v1.kic.v2",
            uid: "uid-kic-2",
            resourceVersion: "102",
        });
    });

    it("takes no Secret that is not Helm's record of the release it names", () => {
        const ok = record("kic", "ns", 1, "pending-install");
        const broken = [
            { ...ok, type: "Opaque" },
            { ...ok, metadata: { ...ok.metadata, labels: { ...ok.metadata.labels, owner: "someone" } } },
            { ...ok, metadata: { ...ok.metadata, name: "sh.helm.release.v1.other.v1" } },
            { ...ok, metadata: { ...ok.metadata, labels: { ...ok.metadata.labels, version: "0" } } },
            { ...ok, metadata: { ...ok.metadata, labels: { ...ok.metadata.labels, version: "1e3" } } },
            { ...ok, metadata: { ...ok.metadata, labels: { ...ok.metadata.labels, status: 3 } } },
            { ...ok, metadata: { ...ok.metadata, namespace: undefined } },
            { ...ok, metadata: null },
            null,
            "sh.helm.release.v1.kic.v1",
        ];
        for (const b of broken) expect(revisionOf(b)).toBeUndefined();
    });
});

describe("the repair of a stuck release", () => {
    const owned = [{ name: "kic", namespace: "nginx-ingress" }];

    it("removes every record of a release never deployed whose newest revision is pending-install", () => {
        const revisions = [rev("kic", "nginx-ingress", 1, "pending-install")];
        const [repair, ...rest] = planReleaseRepairs(owned, revisions);
        expect(rest).toEqual([]);
        expect(repair).toMatchObject({ kind: "remove", release: owned[0], stuck: { revision: 1 }, revisions: [{ secret: "sh.helm.release.v1.kic.v1" }] });
        expect(describeRepair(repair!)).toBe(
            "Helm release nginx-ingress/kic is stuck in pending-install (revision 1) and was never deployed: removing its Helm records (sh.helm.release.v1.kic.v1) so that it installs again; the objects it created are kept and adopted by the install",
        );
    });

    it("rolls a pending upgrade or rollback back to the last deployed revision, else the last superseded one", () => {
        for (const status of ["pending-upgrade", "pending-rollback"]) {
            const [repair] = planReleaseRepairs(owned, [rev("kic", "nginx-ingress", 1, "superseded"), rev("kic", "nginx-ingress", 2, "deployed"), rev("kic", "nginx-ingress", 3, status)]);
            expect(repair).toMatchObject({ kind: "rollback", stuck: { revision: 3, status }, to: { revision: 2 } });
            expect(describeRepair(repair!)).toBe(`Helm release nginx-ingress/kic is stuck in ${status} (revision 3): rolling it back to revision 2 (deployed), as helm rollback does`);
        }
        const [fromSuperseded] = planReleaseRepairs(owned, [rev("kic", "nginx-ingress", 1, "superseded"), rev("kic", "nginx-ingress", 2, "failed"), rev("kic", "nginx-ingress", 3, "pending-upgrade")]);
        expect(fromSuperseded).toMatchObject({ kind: "rollback", to: { revision: 1 } });
    });

    it("rolls back an upgrade the interrupted run left failed (Ctrl-C lets Helm record it so), only when the state's pending update is that release's", () => {
        const revisions = [rev("kic", "nginx-ingress", 1, "deployed"), rev("kic", "nginx-ingress", 2, "failed")];
        const [repair, ...rest] = planReleaseRepairs(owned, revisions, [{ name: "kic", namespace: "nginx-ingress" }]);
        expect(rest).toEqual([]);
        expect(repair).toMatchObject({ kind: "rollback", stuck: { revision: 2, status: "failed" }, to: { revision: 1 } });
        expect(describeRepair(repair!)).toBe("Helm release nginx-ingress/kic's upgrade was interrupted and failed (revision 2): rolling it back to revision 1 (deployed), as helm rollback does");
        // Another release's pending update, or a failed release with nothing to roll back to, is no reason.
        expect(planReleaseRepairs(owned, revisions, [{ name: "kic", namespace: "team-a" }])).toEqual([]);
        expect(planReleaseRepairs(owned, [rev("kic", "nginx-ingress", 1, "failed")], owned)).toEqual([]);
    });

    it("leaves releases that are not stuck, and every release the stack's state does not name", () => {
        const revisions = [
            rev("kic", "nginx-ingress", 1, "deployed"),
            rev("kic", "nginx-ingress", 2, "failed"),
            // Another team's, of the same name, in their namespace; and one of a name the stack does not have.
            rev("kic", "team-a", 1, "pending-install"),
            rev("other", "nginx-ingress", 1, "pending-install"),
        ];
        expect(planReleaseRepairs(owned, revisions)).toEqual([]);
        // A pending revision older than the newest is history, not a lock.
        expect(planReleaseRepairs(owned, [rev("kic", "nginx-ingress", 1, "pending-install"), rev("kic", "nginx-ingress", 2, "deployed")])).toEqual([]);
    });
});

describe("the releases of the stack", () => {
    it("are those its state names, and those never deployed in a namespace it made", () => {
        const state = readState({
            deployment: {
                resources: [
                    { type: RELEASE, outputs: { name: "kic", namespace: "nginx-ingress" } },
                    { type: "kubernetes:core/v1:Namespace", outputs: { metadata: { name: "cert-manager" } } },
                    { type: "kubernetes:core/v1:Namespace", delete: true, outputs: { metadata: { name: "old" } } },
                ],
            },
        });
        expect(state.namespaces).toEqual(["cert-manager"]);
        const revisions = [
            rev("kic", "nginx-ingress", 1, "pending-upgrade"),
            // An install that failed while the API server was away: only its namespace is in the state.
            rev("certmgr", "cert-manager", 1, "pending-install"),
            // Someone else's release in the stack's namespace, deployed once: not the stack's to roll back.
            rev("theirs", "cert-manager", 1, "deployed"),
            rev("theirs", "cert-manager", 2, "pending-upgrade"),
            // A release in a namespace the stack did not make.
            rev("other", "team-a", 1, "pending-install"),
        ];
        expect(ownedReleases(state, revisions)).toEqual([
            { name: "kic", namespace: "nginx-ingress" },
            { name: "certmgr", namespace: "cert-manager" },
        ]);
    });
});

describe("a pending create of a release Helm installed", () => {
    const pending = [
        { urn: urn(RELEASE, "kic-release"), type: RELEASE, operation: "creating", release: { name: "kic", namespace: "nginx-ingress" } },
        { urn: urn(RELEASE, "certmgr-release"), type: RELEASE, operation: "creating", release: { name: "certmgr", namespace: "cert-manager" } },
        { urn: urn(RELEASE, "statsd-release"), type: RELEASE, operation: "creating", release: { name: "statsd", namespace: "prometheus" } },
        { urn: urn(RELEASE, "eck-release"), type: RELEASE, operation: "updating", release: { name: "eck-operator", namespace: "logstore" } },
        { urn: urn("kubernetes:core/v1:Namespace", "ns"), type: "kubernetes:core/v1:Namespace", operation: "creating" },
    ];

    const state = { pending, releases: pending.flatMap((p) => (p.release ? [p.release] : [])), namespaces: ["nginx-ingress", "cert-manager", "logstore"], releaseUrns: {}, crds: [] };

    it("has its records removed when its namespace is the stack's and no repair handles it; the others are cleared", () => {
        const revisions = [
            rev("kic", "nginx-ingress", 1, "deployed"),
            rev("certmgr", "cert-manager", 1, "pending-install"),
            rev("eck-operator", "logstore", 1, "deployed"),
            // The same name in another namespace is not this release.
            rev("statsd", "team-a", 1, "deployed"),
        ];
        const repairs = planReleaseRepairs([{ name: "kic", namespace: "nginx-ingress" }, { name: "certmgr", namespace: "cert-manager" }], revisions);
        const { forget, refused } = planUnrecorded(state, revisions, repairs);
        // certmgr is stuck (a repair removes it); eck-operator's operation is an update, not a create; statsd has no record in its namespace.
        expect(forget.map((u) => [u.urn, u.revisions.map((r) => r.secret)])).toEqual([[urn(RELEASE, "kic-release"), ["sh.helm.release.v1.kic.v1"]]]);
        expect(refused).toEqual([]);
        expect(describeUnrecorded(forget[0]!)).toBe("Helm release nginx-ingress/kic was installed (revision 1, deployed) but the state never recorded it: removing its Helm records (sh.helm.release.v1.kic.v1) so that it installs again; the objects it created are kept and adopted by the install");
    });

    it("stops the run, changing nothing, when its namespace is not the stack's: the records may be another's", () => {
        const revisions = [rev("statsd", "prometheus", 1, "deployed"), rev("statsd", "prometheus", 2, "failed")];
        const { forget, refused } = planUnrecorded(state, revisions, []);
        expect(forget).toEqual([]);
        expect(refused.map((u) => [u.release, u.newest.revision])).toEqual([[{ name: "statsd", namespace: "prometheus" }, 2]]);
        const said = refuseUnrecorded(refused[0]!, "dev");
        expect(said).toContain("Helm release prometheus/statsd exists (revision 2, failed) and the interrupted run was creating it, but its namespace prometheus is not one this stack made");
        expect(said).toContain("kubectl delete secret --namespace prometheus --selector owner=helm,name=statsd");
        expect(said).toContain("npx mara up --stack dev");
        expect(said).toContain("If it is someone else's, mara leaves it alone");
    });
});

describe("the backend's locks", () => {
    const refused = [
        "error: the stack is currently locked by 2 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.",
        "  file:///state/.pulumi/locks/organization/mara/dev/1.json: created by ci@runner-1 (pid 4242) at 2026-11-28T01:02:03Z",
        "  file:///state/.pulumi/locks/organization/mara/dev/2.json: created by ci@runner-1 (pid 77) at 2026-11-28T01:05:00Z",
    ].join("\n");

    it("reads each lock the refusal names", () => {
        expect(locksNamed(refused)).toEqual([
            { user: "ci", host: "runner-1", pid: 4242, at: "2026-11-28T01:02:03Z" },
            { user: "ci", host: "runner-1", pid: 77, at: "2026-11-28T01:05:00Z" },
        ]);
        // The refusal reaches mara in the error's message and in stderr: each lock once.
        expect(locksNamed(`${refused}\n${refused}`)).toHaveLength(2);
        expect(locksNamed("created by ci@runner-1 (pid 4242) at now")).toEqual([]);
        expect(locksNamed("error: something else")).toEqual([]);
    });

    it("calls the locks stale only when every one is of this host and its process is gone", () => {
        const locks = locksNamed(refused);
        expect(allStale(locks, "runner-1", () => false)).toBe(true);
        expect(allStale(locks, "runner-1", (pid) => pid === 77)).toBe(false);
        expect(allStale(locks, "laptop", () => false)).toBe(false);
        expect(allStale([], "runner-1", () => false)).toBe(false);
    });
});
