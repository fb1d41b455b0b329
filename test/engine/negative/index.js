// One case per stack, chosen by the `case` config key; `variant` changes what an update sends.
"use strict";
const path = require("path");
const pulumi = require("@pulumi/pulumi");
const k8s = require("@pulumi/kubernetes");

const config = new pulumi.Config();
const which = config.require("case");
const variant = config.get("variant") ?? "a";
const provider = new k8s.Provider("cluster", { kubeconfig: config.require("kubeconfig"), enableServerSideApply: true });
const opts = { provider };

if (which === "broken-cr") {
    const crd = new k8s.apiextensions.v1.CustomResourceDefinition("widgets", {
        metadata: { name: "widgets.negative.mara.test" },
        spec: {
            group: "negative.mara.test",
            scope: "Namespaced",
            names: { kind: "Widget", plural: "widgets", singular: "widget" },
            versions: [{
                name: "v1", served: true, storage: true,
                schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", required: ["size"], properties: { size: { type: "integer", minimum: 1 } }, "x-kubernetes-validations": [{ rule: "self.size <= 10", message: "size must be at most 10" }] } } } },
            }],
        },
    }, opts);
    new k8s.apiextensions.CustomResource("widget", { apiVersion: "negative.mara.test/v1", kind: "Widget", metadata: { name: "too-big", namespace: "default" }, spec: { size: 11 } }, { ...opts, dependsOn: [crd] });
} else if (which === "missing-namespace") {
    new k8s.core.v1.ConfigMap("orphan", { metadata: { name: "orphan", namespace: "no-such-namespace" }, data: { a: "b" } }, opts);
} else if (which === "immutable") {
    new k8s.apps.v1.Deployment("web", {
        metadata: { name: "web", namespace: "default" },
        spec: {
            selector: { matchLabels: { app: `web-${variant}` } },
            template: { metadata: { labels: { app: `web-${variant}` } }, spec: { containers: [{ name: "web", image: "nginx:1.27" }] } },
        },
    }, opts);
} else if (which === "never-ready") {
    const ns = new k8s.core.v1.Namespace("stuck", { metadata: { name: "stuck" } }, opts);
    new k8s.helm.v3.Release("stuck", {
        name: "stuck",
        namespace: ns.metadata.name,
        chart: path.join(__dirname, "chart"),
        timeout: 20,
        cleanupOnFail: true,
        values: { nodeSelector: { "no-such-label": "anywhere" } },
    }, opts);
} else if (which === "upsert") {
    // A Namespace of a name that already exists, with no guard in front: what the provider does on its own.
    new k8s.core.v1.Namespace("theirs", { metadata: { name: config.require("namespace"), labels: { "app.kubernetes.io/part-of": "mara" } } }, opts);
} else if (which === "existing-release") {
    // A Helm release of a name that already exists in its namespace, with no guard in front.
    new k8s.helm.v3.Release("theirs", { name: config.require("release"), namespace: config.require("namespace"), chart: path.join(__dirname, "chart"), timeout: 60, cleanupOnFail: true, createNamespace: false }, opts);
} else {
    throw new Error(`unknown case ${which}`);
}
