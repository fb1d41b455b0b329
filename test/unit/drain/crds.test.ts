/**
 * CRD cleanup on a shared cluster: only the CRDs this platform's Helm releases installed go, proven by
 * Helm's ownership marks and the release names; another team's operator CRDs in the same API groups
 * stay, and on an existing cluster nothing is removed at all.
 */
import { describe, expect, it } from "vitest";
import { installedBy, removePlatformCrds } from "../../../components/drain/crds";
import { PLATFORM_HELM_RELEASES } from "../../../components/drain/releases";
import { DrainProps, runDrain } from "../../../components/drain/run";
import { fakeClock, FakeKubernetes, helmMarks } from "../../support/fakeClouds";

function sharedCluster() {
    return new FakeKubernetes([], [], [
        { name: "elasticsearches.elasticsearch.k8s.elastic.co", group: "elasticsearch.k8s.elastic.co", ...helmMarks("eck-operator", "logstore") },
        { name: "certificates.cert-manager.io", group: "cert-manager.io", ...helmMarks("certmgr", "cert-manager") },
        // kube-prometheus-stack ships its CRDs in crds/: Helm marks nothing, so nothing proves them ours.
        { name: "servicemonitors.monitoring.coreos.com", group: "monitoring.coreos.com" },
        // The program applies those itself (retained on delete); a server-side apply leaves no Helm marks either.
        { name: "virtualservers.k8s.nginx.org", group: "k8s.nginx.org", labels: { "app.kubernetes.io/managed-by": "pulumi" }, annotations: { "pulumi.com/patchForce": "true" } },
        // Another team's release with one of our release names, in its own namespace.
        { name: "prometheusrules.monitoring.coreos.com", group: "monitoring.coreos.com", ...helmMarks("prometheus", "team-monitoring") },
        // Another team's ECK.
        { name: "agents.agent.k8s.elastic.co", group: "agent.k8s.elastic.co", ...helmMarks("elastic-operator", "elastic-system") },
        // The right annotations without Helm's managed-by label: not Helm's mark.
        { name: "probes.monitoring.coreos.com", group: "monitoring.coreos.com", annotations: helmMarks("prometheus", "prometheus").annotations },
        { name: "widgets.example.com", group: "example.com" },
    ]);
}

describe("CRD cleanup", () => {
    it("deletes only CRDs whose Helm marks name one of the platform's releases in its namespace", async () => {
        const k8s = sharedCluster();
        const log: string[] = [];
        const result = await removePlatformCrds(k8s.client(), PLATFORM_HELM_RELEASES, (m) => log.push(m));
        expect(result.removed).toEqual(["elasticsearches.elasticsearch.k8s.elastic.co", "certificates.cert-manager.io"]);
        expect(k8s.deletedCrds).toEqual(result.removed);
        expect(result.kept).toEqual([
            { name: "prometheusrules.monitoring.coreos.com", reason: "installed by Helm release team-monitoring/prometheus, not this platform's" },
            { name: "probes.monitoring.coreos.com", reason: "names release prometheus/prometheus but lacks Helm's app.kubernetes.io/managed-by label" },
        ]);
        expect(log).toContain("kept 4 other CustomResourceDefinition(s): no Helm marks of this platform's releases (they go with the cluster)");
    });

    it("proves ownership by release name and namespace together", () => {
        const crd = { name: "x", group: "g", ...helmMarks("kic", "nginx-ingress") };
        expect(installedBy(crd, PLATFORM_HELM_RELEASES)).toEqual({ name: "kic", namespace: "nginx-ingress" });
        expect(installedBy({ ...crd, annotations: { ...crd.annotations, "meta.helm.sh/release-namespace": "default" } }, PLATFORM_HELM_RELEASES)).toBeUndefined();
        expect(installedBy({ ...crd, labels: { "app.kubernetes.io/managed-by": "Tiller" } }, PLATFORM_HELM_RELEASES)).toBeUndefined();
    });

    const props: DrainProps = { cloud: "none", clusterName: "shared", kubeconfig: "fake", removeCrds: true, helmReleases: [...PLATFORM_HELM_RELEASES], retainVolumes: false, timeoutMinutes: 15 };
    const deps = (k8s: FakeKubernetes) => ({ cluster: () => k8s.client(), cloud: () => undefined });

    it("removes nothing at all on an existing cluster, even when asked to", async () => {
        const k8s = sharedCluster();
        const log: string[] = [];
        await runDrain(props, (m) => log.push(m), deps(k8s), fakeClock());
        expect(k8s.deletedCrds).toEqual([]);
        expect(log).toEqual(["shared: an existing cluster; the drain deletes nothing in it or in any cloud."]);
    });

    it("removes the platform's CRDs on a cluster the stack created, before the cloud drain", async () => {
        const k8s = sharedCluster();
        await runDrain({ ...props, cloud: "aws", region: "us-east-1", vpcId: "vpc-1" }, () => undefined, deps(k8s), fakeClock());
        expect(k8s.deletedCrds).toEqual(["elasticsearches.elasticsearch.k8s.elastic.co", "certificates.cert-manager.io"]);
    });
});
