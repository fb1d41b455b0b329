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
import { renderPlatform } from "../../cli/render/render";

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
