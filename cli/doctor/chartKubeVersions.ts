/**
 * The Kubernetes versions each pinned chart accepts (the `kubeVersion` constraint of its Chart.yaml; Helm refuses
 * to install on a cluster outside it). `mara doctor` checks the live cluster against them; the render tier
 * (test/render/chartKubeVersions.test.ts) fails when this table and the vendored archives disagree, so a chart
 * bump cannot leave it stale. A chart without a constraint has no entry.
 */
export const CHART_KUBE_VERSIONS: Readonly<Record<string, string>> = {
    "argo-cd@10.1.1": ">=1.25.0-0",
    "cert-manager@v1.21.1": ">= 1.22.0-0",
    "eck-operator@3.5.0": ">=1.21.0-0",
    "kube-prometheus-stack@88.5.3": ">=1.25.0-0",
    "metallb@0.16.1": ">= 1.19.0-0",
    "nfs-subdir-external-provisioner@4.0.18": ">=1.9.0-0",
    "nginx-ingress@2.6.4": ">= 1.25.0-0",
};
