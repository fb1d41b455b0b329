/**
 * CRDs an API server restart left accepted but not established (cli/operation/recovery/crds.ts): which are the stack's
 * to nudge, and the nudge itself. The client here records calls in place of the API server; the engine tier's
 * apiServerDown test runs the nudge against a restarted real one.
 */
import { describe, expect, it } from "vitest";
import { describeUnestablished, establishCrds, NUDGE_ANNOTATION, unestablishedCrds } from "../../cli/operation/recovery/crds";
import { lastRunFailed } from "../../cli/operation/recovery/repair";

const crd = (name: string, namespace: string | undefined, conditions: Record<string, string>, extra: Record<string, unknown> = {}) => ({
    metadata: { name, ...(namespace ? { annotations: { "meta.helm.sh/release-name": "rel", "meta.helm.sh/release-namespace": namespace } } : {}), ...extra },
    status: { conditions: Object.entries(conditions).map(([type, status]) => ({ type, status })) },
});

describe("CRDs left unestablished by an API server restart", () => {
    it("are those of a Helm release in the stack's namespaces with names accepted and not established", () => {
        const list = {
            items: [
                crd("clusterissuers.cert-manager.io", "cert-manager", { NamesAccepted: "True", Established: "False" }),
                crd("issuers.cert-manager.io", "cert-manager", { NamesAccepted: "True", Established: "True" }),
                crd("pending.example.com", "cert-manager", { NamesAccepted: "False", Established: "False" }),
                crd("noestablished.cert-manager.io", "cert-manager", { NamesAccepted: "True" }),
                crd("theirs.example.com", "other-team", { NamesAccepted: "True", Established: "False" }),
                crd("unowned.example.com", undefined, { NamesAccepted: "True", Established: "False" }),
                crd("going.cert-manager.io", "cert-manager", { NamesAccepted: "True", Established: "False" }, { deletionTimestamp: "2026-11-28T00:00:00Z" }),
                { ...crd("escaped.cert-manager.io", "cert-manager", { NamesAccepted: "True", Established: "False" }), metadata: { name: "escaped.cert-manager.io", annotations: { "meta.helm.sh/release-name": "rel\u001b[2J", "meta.helm.sh/release-namespace": "cert-manager" } } },
                "not a CRD",
                { metadata: { name: 7 } },
            ],
        };
        expect(unestablishedCrds(list, ["cert-manager", "logstore"]).map((c) => c.name)).toEqual(["clusterissuers.cert-manager.io", "noestablished.cert-manager.io"]);
        expect(unestablishedCrds(list, [])).toEqual([]);
        // The stack's own, named by its state: applied by the program (no Helm marks), or taken over by it from another
        // installation's Helm release (components/chartCrds.ts); an established one is left alone.
        expect(unestablishedCrds(list, ["cert-manager"], ["unowned.example.com", "issuers.cert-manager.io", "theirs.example.com"])).toEqual([
            { name: "clusterissuers.cert-manager.io", release: { name: "rel", namespace: "cert-manager" } },
            { name: "noestablished.cert-manager.io", release: { name: "rel", namespace: "cert-manager" } },
            { name: "theirs.example.com" },
            { name: "unowned.example.com" },
        ]);
        expect(unestablishedCrds({ kind: "Status" }, ["cert-manager"])).toEqual([]);
        expect(unestablishedCrds(null, ["cert-manager"])).toEqual([]);
    });

    it("says which the stack applies itself", () => {
        const list = { items: [crd("virtualserverroutes.k8s.nginx.org", undefined, { NamesAccepted: "True", Established: "False" })] };
        const [found] = unestablishedCrds(list, [], ["virtualserverroutes.k8s.nginx.org"]);
        expect(describeUnestablished(found!)).toBe(
            "CustomResourceDefinition virtualserverroutes.k8s.nginx.org (applied by this stack) has its names accepted but was never established, as after an API server restart: asking the API server to establish it now (otherwise it waits up to five minutes, and so does what uses it)",
        );
    });

    it("are nudged by an annotation set and removed again, and a failure is said, never thrown", async () => {
        const calls: [string, unknown][] = [];
        let err = "";
        const io = { stderr: { write: (t: string) => ((err += t), true) } } as never;
        const list = { items: [crd("clusterissuers.cert-manager.io", "cert-manager", { NamesAccepted: "True", Established: "False" }), crd("b.example.com", "cert-manager", { NamesAccepted: "True", Established: "False" })] };
        await establishCrds(
            {
                get: async () => list as never,
                mergePatch: async (path: string, patch: unknown) => {
                    if (path.endsWith("/b.example.com")) throw new Error("PATCH b.example.com: 403 forbidden");
                    calls.push([path, patch]);
                    return {} as never;
                },
            },
            ["cert-manager"],
            io,
        );
        expect(calls).toEqual([
            ["/apis/apiextensions.k8s.io/v1/customresourcedefinitions/clusterissuers.cert-manager.io", { metadata: { annotations: { [NUDGE_ANNOTATION]: expect.any(String) } } }],
            ["/apis/apiextensions.k8s.io/v1/customresourcedefinitions/clusterissuers.cert-manager.io", { metadata: { annotations: { [NUDGE_ANNOTATION]: null } } }],
        ]);
        expect(err).toContain("CustomResourceDefinition clusterissuers.cert-manager.io (Helm release cert-manager/rel) has its names accepted but was never established");
        expect(err).toContain("✓ asked the API server to establish clusterissuers.cert-manager.io");
        expect(err).toContain("could not update b.example.com (PATCH b.example.com: 403 forbidden); the install waits until the API server establishes it");

        err = "";
        await establishCrds({ get: async () => Promise.reject(new Error("GET crds: 403 forbidden")), mergePatch: async () => ({}) as never }, ["cert-manager"], io);
        expect(err).toContain("the CustomResourceDefinitions were not checked (GET crds: 403 forbidden)");
    });

    it("after a run that did not succeed, with nothing else to repair: a heading only when a CRD is found or the list fails", async () => {
        let err = "";
        const io = { stderr: { write: (t: string) => ((err += t), true) } } as never;
        const heading = 'The last run on stack "dev" did not succeed:';
        const established = { items: [crd("issuers.cert-manager.io", "cert-manager", { NamesAccepted: "True", Established: "True" })] };
        await establishCrds({ get: async () => established as never, mergePatch: async () => ({}) as never }, ["cert-manager"], io, [], heading);
        expect(err).toBe("");
        const left = { items: [crd("virtualserverroutes.k8s.nginx.org", undefined, { NamesAccepted: "True", Established: "False" })] };
        await establishCrds({ get: async () => left as never, mergePatch: async () => ({}) as never }, [], io, ["virtualserverroutes.k8s.nginx.org"], heading);
        expect(err.split("\n")[0]).toBe(heading);
        expect(err).toContain("✓ asked the API server to establish virtualserverroutes.k8s.nginx.org");
        err = "";
        await establishCrds({ get: async () => Promise.reject(new Error("connect ECONNREFUSED")), mergePatch: async () => ({}) as never }, [], io, [], heading);
        expect(err.split("\n")[0]).toBe(heading);
        expect(err).toContain("the CustomResourceDefinitions were not checked (connect ECONNREFUSED)");
    });

    it("are looked for only when the stack's last update did not succeed, as its history says", async () => {
        // A fake of the Automation API's Stack.history, which runs `pulumi stack history --json` and answers
        // UpdateSummary objects whose `result` is not-started, in-progress, succeeded or failed
        // (@pulumi/pulumi automation/stack.d.ts); the engine tier's `mara up` runs the real one.
        const history = (result: string | undefined, fails = false) => ({
            history: async (pageSize?: number, page?: number, showSecrets?: boolean) => {
                if (fails) throw new Error("pulumi stack history: exit 255");
                // One summary, the newest, without its secrets: no more is read than the decision needs.
                expect([pageSize, page, showSecrets]).toEqual([1, 1, false]);
                return (result ? [{ result }] : []) as never;
            },
        });
        expect(await lastRunFailed(history("failed"))).toBe(true);
        // A killed run's update is never closed.
        expect(await lastRunFailed(history("in-progress"))).toBe(true);
        expect(await lastRunFailed(history("succeeded"))).toBe(false);
        // A new stack, or history that cannot be read: nothing to look for.
        expect(await lastRunFailed(history(undefined))).toBe(false);
        expect(await lastRunFailed(history("failed", true))).toBe(false);
    });
});
