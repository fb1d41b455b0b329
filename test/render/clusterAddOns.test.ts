/**
 * The render tier over an existing cluster that asks for MetalLB (layer 2, and BGP) and the NFS provisioner: their
 * releases rendered by Helm 3 from the vendored charts, the pool, advertisements and peers checked against the CRDs
 * MetalLB's chart installs, the StorageClass against Kubernetes 1.35, and every dependency in place (the custom
 * resources wait for the release that defines them).
 */
import { describe, expect, it } from "vitest";
import { fixture } from "../support/config";
import { withClusterAddOns } from "../support/clusterAddOns";
import { runProgram } from "../support/program";
import { checkRun, Finding } from "./tier";
import program from "../../index";
import { validateConfig } from "../../config";
import { renderPlatform } from "../../render/render";
import { NFS_PROVISIONER, NFS_RELEASE, nfsValues } from "../../components/nfsStorage";
import { CHARTS } from "../../contracts";
import { parseManifest, vendoredChart } from "../support/charts";
import { helmTemplate } from "../support/helm";

const SECRETS = { "mara:grafanaAdminPassword": "grafana-pw", "sirius:accounts_pwd": "accounts-pw" };
const report = (findings: Finding[]) => findings.map((f) => `[${f.rule}] ${f.subject}: ${f.message}`).join("\n");

describe("render tier: MetalLB and the NFS provisioner on an existing cluster", () => {
    for (const [what, bgp, preview] of [
        ["layer 2, up", false, false],
        ["layer 2, first preview", false, true],
        ["BGP, up", true, false],
    ] as const) {
        it(what, async () => {
            const run = await runProgram(withClusterAddOns(fixture("mara-kubeconfig", { secrets: SECRETS }), { bgp }), { preview });
            expect(run.error).toBeUndefined();
            const kinds = run.registrations.filter((r) => r.type === "kubernetes:metallb.io/v1beta1:IPAddressPool" || r.type.startsWith("kubernetes:metallb.io")).map((r) => r.type.split(":")[2]);
            expect(kinds.sort()).toEqual(bgp ? ["BGPAdvertisement", "BGPPeer", "IPAddressPool"] : ["IPAddressPool", "L2Advertisement"]);
            const findings = await checkRun(run.registrations, { probeIgnoredKeys: !preview });
            expect(findings, report(findings)).toEqual([]);
        }, 300_000);
    }
});

describe("mara render with MetalLB: a first Argo CD sync completes", () => {
    // The speakers mount the memberlist Secret, and MetalLB's webhook gets its CA, from MetalLB's controller at start:
    // without that knowledge the sync model refused every such render (found against a real API server).
    for (const [what, bgp] of [["layer 2", false], ["BGP", true]] as const) {
        it(what, async () => {
            const raw = withClusterAddOns(fixture("mara-kubeconfig", { secrets: SECRETS }), { bgp });
            const rendered = await renderPlatform({ raw, config: validateConfig(raw).config!, program, secrets: { mode: "omit" } });
            expect([...rendered.files.keys()].filter((f) => f.includes("metallb")).length).toBeGreaterThan(5);
        }, 300_000);
    }
});

describe("the NFS provisioner's chart with the NfsStorage component's values", () => {
    it("makes one provisioner of the export under the class's provisioner name, with only what a provisioner may do, and no StorageClass of its own", async () => {
        const chartPath = vendoredChart(CHARTS.nfs.chart, CHARTS.nfs.version);
        expect(chartPath, "test/charts has the nfs-subdir-external-provisioner archive").toBeDefined();
        const r = await helmTemplate({ release: NFS_RELEASE, namespace: "nfs-provisioner", chartPath: chartPath!, values: nfsValues({ server: "192.168.1.10", path: "/srv/nfs/mara" }), kubeVersion: "1.35", includeCrds: true });
        if (!r.ok) throw new Error(r.error);
        const objects = parseManifest(r.manifest);
        expect(objects.map((o) => `${o.kind}/${o.metadata!.name}`).sort()).toEqual([
            "ClusterRole/mara-nfs-provisioner-runner",
            "ClusterRoleBinding/run-mara-nfs-provisioner",
            "Deployment/mara-nfs-provisioner",
            "Role/leader-locking-mara-nfs-provisioner",
            "RoleBinding/leader-locking-mara-nfs-provisioner",
            "ServiceAccount/mara-nfs-provisioner",
        ]);
        const deployment = objects.find((o) => o.kind === "Deployment") as unknown as { spec: { replicas: number; strategy: { type: string }; template: { spec: { containers: { image: string; env: { name: string; value: string }[] }[]; volumes: unknown[] } } } };
        expect(deployment.spec.replicas).toBe(1);
        // Two provisioners would race for the same claims until leader election settles.
        expect(deployment.spec.strategy.type).toBe("Recreate");
        const [container] = deployment.spec.template.spec.containers;
        expect(container!.image).toBe("registry.k8s.io/sig-storage/nfs-subdir-external-provisioner:v4.0.2");
        expect(Object.fromEntries(container!.env.map((e) => [e.name, e.value]))).toEqual({ PROVISIONER_NAME: NFS_PROVISIONER, NFS_SERVER: "192.168.1.10", NFS_PATH: "/srv/nfs/mara" });
        expect(deployment.spec.template.spec.volumes).toEqual([{ name: "nfs-subdir-external-provisioner-root", nfs: { server: "192.168.1.10", path: "/srv/nfs/mara" } }]);
        // The pod may only do what a provisioner does: no Secrets, no wildcard; its lock (Endpoints) only through a Role, in the release's namespace.
        const rules = (kind: string) => (objects.find((o) => o.kind === kind) as unknown as { rules: { resources: string[]; verbs: string[] }[] }).rules;
        expect(rules("ClusterRole").flatMap((x) => x.resources).sort()).toEqual(["events", "nodes", "persistentvolumeclaims", "persistentvolumes", "storageclasses"]);
        expect([...rules("ClusterRole"), ...rules("Role")].flatMap((x) => [...x.resources, ...x.verbs])).not.toContain("*");
        expect(rules("Role").flatMap((x) => x.resources)).toEqual(["endpoints"]);
        // Every object carries the platform's label (the chart's `labels` value).
        for (const o of objects) expect(o.metadata!.labels?.["app.kubernetes.io/part-of"], `${o.kind}/${o.metadata!.name}`).toBe("mara");
    });
});
