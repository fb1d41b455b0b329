/** The kubeconfig merge: a pure function, so every rule is checked without files or Pulumi. */
import { describe, expect, it } from "vitest";
import { defaultKubeconfigPath, mergeKubeconfig } from "../../cli/kube/kubeconfigMerge";
import { sampleKubeconfig } from "../support/mocks";

const eks = sampleKubeconfig("mara-dev");

const existing = () => ({
    apiVersion: "v1",
    kind: "Config",
    preferences: { colors: true },
    clusters: [
        { name: "kind-dev", cluster: { server: "https://127.0.0.1:6443" } },
        { name: "mara-dev", cluster: { server: "https://OLD.eks.amazonaws.com" } },
    ],
    users: [
        { name: "kind-dev", user: { token: "kind-token" } },
        { name: "aws", user: { exec: { command: "aws", args: ["eks", "get-token", "--cluster-name", "other"] } } },
    ],
    contexts: [{ name: "kind-dev", context: { cluster: "kind-dev", user: "kind-dev", namespace: "apps" } }],
    "current-context": "kind-dev",
});

describe("mergeKubeconfig", () => {
    it("adds the cluster, user and context under one name and makes it current", () => {
        const { merged, name, replaced } = mergeKubeconfig(existing(), eks, "mara-dev");
        expect(name).toBe("mara-dev");
        expect(merged["current-context"]).toBe("mara-dev");
        expect(merged.contexts).toContainEqual({ name: "mara-dev", context: { cluster: "mara-dev", user: "mara-dev" } });
        expect(merged.users).toContainEqual({ name: "mara-dev", user: eks.users[0]!.user });
        expect(replaced).toEqual(["clusters"]);
    });

    it("replaces only same-named entries and keeps everything else, including other top-level fields", () => {
        const before = existing();
        const { merged } = mergeKubeconfig(before, eks, "mara-dev");
        expect(merged.clusters).toEqual([before.clusters[0], { name: "mara-dev", cluster: eks.clusters[0]!.cluster }]);
        // The other cluster's "aws" user survives: EKS kubeconfigs all name their user "aws", so the
        // merge renames ours instead of overwriting it.
        expect(merged.users).toEqual([...before.users, { name: "mara-dev", user: eks.users[0]!.user }]);
        expect((merged.contexts as unknown[])[0]).toEqual(before.contexts[0]);
        expect(merged.preferences).toEqual({ colors: true });
        expect(before.clusters[1]!.cluster.server).toBe("https://OLD.eks.amazonaws.com"); // input not mutated
    });

    it("keeps the incoming context's name when no name is given, and its namespace", () => {
        const incoming = { ...eks, contexts: [{ name: "aws", context: { cluster: "mara-dev", user: "aws", namespace: "bos" } }] };
        const { merged, name } = mergeKubeconfig(undefined, incoming);
        expect(name).toBe("aws");
        expect(merged).toMatchObject({ apiVersion: "v1", kind: "Config", "current-context": "aws" });
        expect(merged.contexts).toEqual([{ name: "aws", context: { cluster: "aws", user: "aws", namespace: "bos" } }]);
    });

    it("uses the incoming current-context when there are several", () => {
        const incoming = { ...eks, contexts: [{ name: "other", context: { cluster: "x", user: "y" } }, ...eks.contexts], "current-context": "aws" };
        expect(mergeKubeconfig(undefined, incoming, "n").merged.clusters).toEqual([{ name: "n", cluster: eks.clusters[0]!.cluster }]);
    });

    it("says what is wrong with a document that is not a kubeconfig", () => {
        expect(() => mergeKubeconfig(undefined, { ...eks, contexts: [] })).toThrow("the stack's kubeconfig has no context");
        expect(() => mergeKubeconfig(undefined, { ...eks, users: [] })).toThrow(`the stack's kubeconfig has no user "aws" for context "aws"`);
        expect(() => mergeKubeconfig({ clusters: "nope" }, eks)).toThrow('your kubeconfig: "clusters" is not a list of named entries');
        expect(() => mergeKubeconfig(undefined, { ...eks, users: [{ user: {} }] })).toThrow(`the stack's kubeconfig: "users" is not a list of named entries`);
        expect(() => mergeKubeconfig(["a"] as never, eks)).toThrow("your kubeconfig is not a YAML mapping");
    });
});

describe("defaultKubeconfigPath", () => {
    it("takes the first KUBECONFIG entry, else ~/.kube/config", () => {
        expect(defaultKubeconfigPath({ KUBECONFIG: ":/a/config:/b/config", HOME: "/h" })).toBe("/a/config");
        expect(defaultKubeconfigPath({ HOME: "/h" })).toBe("/h/.kube/config");
    });
});
