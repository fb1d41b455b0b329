/**
 * The CRDs of the charts' `crds/` directories, applied by the components rather than left to Helm (which
 * installs them once and never upgrades them): one server-side-applied resource per CRD, forced over Helm's
 * fields, never deleted, on the cluster's provider, before the release, which skips its `crds/` directory.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as pulumi from "@pulumi/pulumi";
import { IngressController, Prometheus } from "../../components";
import { shippedCrds } from "../../components/chartCrds";
import { CHARTS, CrdManifest } from "../../contracts";
import { k8sProviderRef, testProvider } from "../support/k8s";
import { find, installMocks, ofType, Registration, settle, unwrapSecrets } from "../support/mocks";

const CRD = "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinitionPatch";
const RELEASE = "kubernetes:helm.sh/v3:Release";

const PROMETHEUS_CRDS = ["alertmanagerconfigs", "alertmanagers", "podmonitors", "probes", "prometheusagents", "prometheuses", "prometheusrules", "scrapeconfigs", "servicemonitors", "thanosrulers"].map(
    (p) => `${p}.monitoring.coreos.com`,
);
const INGRESS_CRDS = [
    "aplogconfs.appprotect.f5.com", "appolicies.appprotect.f5.com", "apusersigs.appprotect.f5.com", "apdoslogconfs.appprotectdos.f5.com",
    "apdospolicies.appprotectdos.f5.com", "dosprotectedresources.appprotectdos.f5.com", "dnsendpoints.externaldns.nginx.org",
    "globalconfigurations.k8s.nginx.org", "policies.k8s.nginx.org", "transportservers.k8s.nginx.org", "virtualserverroutes.k8s.nginx.org",
    "virtualservers.k8s.nginx.org",
];

describe("the CRD data shipped with the package", () => {
    it("has kube-prometheus-stack's ten and nginx-ingress's twelve CRDs at the pinned versions, and nothing for other versions", () => {
        expect(shippedCrds(CHARTS.prometheus)!.map((c) => c.metadata.name)).toEqual(PROMETHEUS_CRDS);
        expect(shippedCrds(CHARTS.ingress)!.map((c) => c.metadata.name).sort()).toEqual([...INGRESS_CRDS].sort());
        expect(shippedCrds({ chart: "kube-prometheus-stack", version: "41.5.0" })).toBeUndefined();
        expect(shippedCrds(CHARTS.certManager)).toBeUndefined();
    });
});

describe("CRDs applied with their chart", () => {
    let regs: Registration[];
    let provider: string;
    let warnings: string[];
    const servicemonitors = shippedCrds(CHARTS.prometheus)!.find((c) => c.metadata.name === "servicemonitors.monitoring.coreos.com")!;
    const own: CrdManifest = { ...servicemonitors, spec: { ...servicemonitors.spec, versions: [] } };

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        warnings = [];
        vi.spyOn(pulumi.log, "warn").mockImplementation((m: string) => (warnings.push(m), Promise.resolve()));
        const p = testProvider();
        provider = await k8sProviderRef(p);
        const opts = { providers: [p] };
        new Prometheus("prometheus", { grafanaAdminPassword: "pw" }, opts);
        new IngressController("ingress-controller", { imageRepository: "nginx/nginx-ingress", imageTag: "5.5.4" }, opts);
        new Prometheus("helm-managed", { grafanaAdminPassword: "pw", namespace: "other", applyCrds: false }, opts);
        new Prometheus("old-chart", { grafanaAdminPassword: "pw", namespace: "old", chart: { ...CHARTS.prometheus, version: "41.5.0" } }, opts);
        new Prometheus("given", { grafanaAdminPassword: "pw", namespace: "given", chart: { ...CHARTS.prometheus, version: "99.0.0" }, crds: [own] }, opts);
        await settle();
    }, 180_000);

    const crdsOf = (component: string) => ofType(regs, CRD).filter((r) => r.name.startsWith(`${component}-crd-`));

    it("applies every CRD of the chart's crds/ directories as shipped, named after the CRD, not the chart version", () => {
        expect(crdsOf("prometheus").map((r) => r.name).sort()).toEqual(PROMETHEUS_CRDS.map((n) => `prometheus-crd-${n}`));
        expect(crdsOf("ingress-controller").map((r) => r.name).sort()).toEqual(INGRESS_CRDS.map((n) => `ingress-controller-crd-${n}`).sort());
        for (const crd of shippedCrds(CHARTS.prometheus)!) {
            const inputs = unwrapSecrets(find(regs, CRD, `prometheus-crd-${crd.metadata.name}`).inputs) as unknown as CrdManifest;
            expect(inputs.spec).toEqual(crd.spec);
            expect(inputs.metadata.name).toBe(crd.metadata.name);
        }
    });

    it("takes over fields Helm set (patchForce), never deletes a CRD, and uses the cluster's provider", () => {
        for (const r of [...crdsOf("prometheus"), ...crdsOf("ingress-controller")]) {
            const inputs = unwrapSecrets(r.inputs) as unknown as CrdManifest;
            expect(inputs.metadata.annotations?.["pulumi.com/patchForce"], r.name).toBe("true");
            expect(r.retainOnDelete, r.name).toBe(true);
            expect(r.provider, r.name).toBe(provider);
        }
        // The chart's own annotations stay (the operator reads its version from them).
        const sm = unwrapSecrets(find(regs, CRD, "prometheus-crd-servicemonitors.monitoring.coreos.com").inputs) as unknown as CrdManifest;
        expect(sm.metadata.annotations?.["operator.prometheus.io/version"]).toBe(servicemonitors.metadata.annotations?.["operator.prometheus.io/version"]);
    });

    it("installs the release after its CRDs, with Helm skipping the crds/ directory", () => {
        for (const [component, release] of [["prometheus", "prometheus-release"], ["ingress-controller", "ingress-controller-release"]] as const) {
            const r = find(regs, RELEASE, release);
            expect(r.inputs!.skipCrds, release).toBe(true);
            for (const crd of crdsOf(component)) expect(r.dependencies, `${release} waits for ${crd.name}`).toContain(crd.urn);
        }
    });

    it("leaves the CRDs to Helm with applyCrds false, or for a chart version the package ships none for (with a warning)", () => {
        expect(crdsOf("helm-managed")).toEqual([]);
        expect(find(regs, RELEASE, "helm-managed-release").inputs!.skipCrds).toBeUndefined();
        expect(crdsOf("old-chart")).toEqual([]);
        expect(find(regs, RELEASE, "old-chart-release").inputs!.skipCrds).toBeUndefined();
        expect(warnings.filter((w) => w.includes("kube-prometheus-stack 41.5.0"))).toHaveLength(1);
        expect(warnings.join("\n")).toContain("never upgrades it");
        // The pinned versions warn about nothing.
        expect(warnings.filter((w) => w.includes(CHARTS.prometheus.version) || w.includes(CHARTS.ingress.version))).toEqual([]);
    });

    it("applies the CRDs it is given for another chart version", () => {
        expect(crdsOf("given").map((r) => r.name)).toEqual(["given-crd-servicemonitors.monitoring.coreos.com"]);
        expect((unwrapSecrets(crdsOf("given")[0]!.inputs) as { spec: { versions: unknown[] } }).spec.versions).toEqual([]);
        expect(find(regs, RELEASE, "given-release").inputs!.skipCrds).toBe(true);
    });
});
