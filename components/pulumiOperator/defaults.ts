/**
 * The Pulumi Kubernetes Operator's chart pin, as data: the chart catalogue (contracts/charts.ts) takes its entry from
 * here. Its arguments have no defaults of their own (the backend left out is the operator's own, Pulumi Cloud), so
 * the defaults table has no entry for it. Imports nothing (test/package/layers.test.ts).
 */

/**
 * The pulumi-kubernetes-operator chart, installed only when the operator delivers the platform (mara:delivery
 * operator). Published only as an OCI artifact (pulumi/pulumi-kubernetes-operator, deploy/helm/pulumi-operator).
 */
export const PULUMI_OPERATOR_CHART = {
    title: "Pulumi Kubernetes Operator",
    chart: "pulumi-kubernetes-operator",
    repositoryUrl: "oci://ghcr.io/pulumi/helm-charts",
    version: "2.9.0",
    timeoutSeconds: 600,
} as const;
