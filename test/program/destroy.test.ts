/**
 * `pulumi destroy` deletes in the reverse of the dependency graph, so the graph the program registers
 * proves the one-pass delete order on every infra type: everything in the cluster before the drain, the
 * drain before the cluster, the cluster before its network. A resource also depends on its provider (the
 * engine deletes a provider only after every resource using it).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { fixture } from "../support/config";
import { find, isWrappedSecret, ofType, Registration, unwrapSecrets } from "../support/mocks";
import { runProgram } from "../support/program";

const SECRETS = { "digitalocean:token": "do-token", "linode:token": "linode-token" };

/** Everything `urn` waits for, directly or through dependencies and providers. */
function ancestors(regs: Registration[], urn: string): Set<string> {
    const byUrn = new Map(regs.map((r) => [r.urn!, r]));
    const seen = new Set<string>();
    const stack = [urn];
    while (stack.length) {
        const r = byUrn.get(stack.pop()!);
        if (!r) continue;
        const providerUrn = r.provider ? r.provider.split("::").slice(0, -1).join("::") : undefined;
        for (const d of [...r.dependencies, ...(providerUrn ? [providerUrn] : [])]) {
            if (!seen.has(d)) {
                seen.add(d);
                stack.push(d);
            }
        }
    }
    return seen;
}

describe.each([
    ["minimal-aws", "eks:index:Cluster", "eks-cluster", ["aws:ec2/subnet:Subnet", "aws:ec2/vpc:Vpc", "aws:ec2/natGateway:NatGateway"]],
    ["mara-do", "digitalocean:index/kubernetesCluster:KubernetesCluster", "doks-cluster", []],
    ["mara-lke", "linode:index/lkeCluster:LkeCluster", "lke-cluster", []],
    ["mara-kubeconfig", undefined, undefined, []],
] as const)("destroy order on %s", (name, clusterType, clusterName, network) => {
    let regs: Registration[];
    let drainUrn: string;

    beforeAll(async () => {
        const run = await runProgram(fixture(name, { secrets: SECRETS }));
        expect(run.error).toBeUndefined();
        regs = run.registrations;
        drainUrn = find(regs, "pulumi-nodejs:dynamic:Resource", "drain-drain").urn!;
    }, 300_000);

    it("deletes every object in the cluster before the drain", () => {
        const inCluster = regs.filter((r) => r.custom && r.type.startsWith("kubernetes:"));
        expect(inCluster.length).toBeGreaterThanOrEqual(50);
        for (const r of inCluster) expect(ancestors(regs, r.urn!).has(drainUrn), `${r.type} ${r.name}`).toBe(true);
        // The Kubernetes provider itself waits for the drain, so nothing deployed into the cluster can outlive it.
        expect(find(regs, "pulumi:providers:kubernetes", "kubeconfig-provider").dependencies).toContain(drainUrn);
    });

    it("deletes the drain before the cluster, and the cluster before its network", () => {
        if (!clusterType) return;
        const cluster = find(regs, clusterType, clusterName!).urn!;
        expect(ancestors(regs, drainUrn).has(cluster)).toBe(true);
        for (const type of network) {
            for (const r of ofType(regs, type)) {
                expect(ancestors(regs, drainUrn).has(r.urn!), `drain after ${r.name}`).toBe(true);
                // Nodes reach the internet through NAT, but the cluster resource itself only names the subnets.
                if (type !== "aws:ec2/natGateway:NatGateway") expect(ancestors(regs, cluster).has(r.urn!), `cluster after ${r.name}`).toBe(true);
            }
        }
    });

    it("keeps the drain's credentials secret", () => {
        const drain = find(regs, "pulumi-nodejs:dynamic:Resource", "drain-drain");
        for (const key of ["kubeconfig", "token"]) if (key in drain.inputs!) expect(isWrappedSecret(drain.inputs![key]), key).toBe(true);
    });
});

describe("drain settings", () => {
    it("carries what the AWS drain needs, with MARA's defaults for tear down", async () => {
        const run = await runProgram(fixture("minimal-aws"));
        const inputs = unwrapSecrets(find(run.registrations, "pulumi-nodejs:dynamic:Resource", "drain-drain").inputs) as Record<string, unknown>;
        expect(inputs).toMatchObject({ cloud: "aws", clusterName: "mara-dev", region: "us-east-1", vpcId: "vpc-vpc-id", removeCrds: true, retainVolumes: false, timeoutMinutes: 15 });
        expect(typeof inputs.__provider).toBe("string");
    }, 120_000);

    it("retains volumes, protects stateful components and leaves CRDs on shared clusters when asked", async () => {
        const raw = fixture("minimal-aws");
        const run = await runProgram({ ...raw, values: { ...raw.values, "mara:retainVolumes": "true", "mara:protectData": "true", "mara:removeCrds": "false" } });
        expect(find(run.registrations, "kubernetes:storage.k8s.io/v1:StorageClass", "platform-storage-class").inputs!.reclaimPolicy).toBe("Retain");
        expect(unwrapSecrets(find(run.registrations, "pulumi-nodejs:dynamic:Resource", "drain-drain").inputs)).toMatchObject({ removeCrds: false, retainVolumes: true });
        const existing = await runProgram(fixture("mara-kubeconfig"));
        expect(unwrapSecrets(find(existing.registrations, "pulumi-nodejs:dynamic:Resource", "drain-drain").inputs)).toMatchObject({ cloud: "none", removeCrds: false });
    }, 120_000);
});

describe("what the drain and the retention step are told", () => {
    it("names exactly the platform's Helm releases as those whose CRDs may be removed", async () => {
        const run = await runProgram(fixture("minimal-aws"));
        const declared = ofType(run.registrations, "kubernetes:helm.sh/v3:Release")
            .map((r) => unwrapSecrets(r.inputs) as { name: string; namespace: string })
            .filter((r) => r.namespace !== "bos")
            .map((r) => `${r.namespace}/${r.name}`)
            .sort();
        const drain = unwrapSecrets(find(run.registrations, "pulumi-nodejs:dynamic:Resource", "drain-drain").inputs) as { helmReleases: { name: string; namespace: string }[] };
        expect(drain.helmReleases.map((r) => `${r.namespace}/${r.name}`).sort()).toEqual(declared);
    }, 120_000);

    it("creates the retention step after the stateful components, so destroy runs it before deleting them", async () => {
        const run = await runProgram(fixture("minimal-aws"));
        const regs = run.registrations;
        const retention = find(regs, "pulumi-nodejs:dynamic:Resource", "volume-retention-retain");
        const waitsFor = ancestors(regs, retention.urn!);
        for (const [type, name] of [
            ["kubernetes:storage.k8s.io/v1:StorageClass", "platform-storage-class"],
            ["kubernetes:apps/v1:StatefulSet", "bank-of-sirius-accounts-db"],
            ["kubernetes:apps/v1:StatefulSet", "bank-of-sirius-ledger-db"],
            ["kubernetes:helm.sh/v3:Release", "platform-prometheus-release"],
        ] as const) {
            expect(waitsFor.has(find(regs, type, name).urn!), `${type} ${name}`).toBe(true);
        }
        const inputs = retention.inputs!;
        expect(isWrappedSecret(inputs.kubeconfig)).toBe(true);
        expect(unwrapSecrets(inputs)).toMatchObject({ retainVolumes: false, namespaces: ["logstore", "prometheus", "bos"] });
    }, 120_000);
});
