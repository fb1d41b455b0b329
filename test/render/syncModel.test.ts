/**
 * The sync model (render/sync/) on small renders written here: a correct one passes, and each rule fails on a
 * render that breaks it, with the file and the reason. The model on every fixture's real render is in
 * manifests.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { KubeObject } from "../../contracts/kubeObject";
import { toYaml } from "../../render/layout";
import { checkSync, SyncProblem } from "../../render/sync/check";

type Obj = KubeObject & Record<string, unknown>;

/** A render's files from objects, each in `c/<kind>-<name>.yaml`, with its wave (and hook) annotations. */
function render(...objects: Obj[]): Map<string, string> {
    return new Map(objects.map((o) => [`c/${o.kind.toLowerCase()}-${o.metadata?.namespace ?? ""}-${o.metadata?.name}.yaml`, toYaml(o)]));
}

const wave = (n: number, more: Record<string, string> = {}) => ({ "argocd.argoproj.io/sync-wave": String(n), ...more });
const ns = (name: string, w = -2): Obj => ({ apiVersion: "v1", kind: "Namespace", metadata: { name, annotations: wave(w) } });
const secret = (name: string, w = -1, namespace = "app"): Obj => ({ apiVersion: "v1", kind: "Secret", metadata: { name, namespace, annotations: wave(w) } });
const configMap = (name: string, w = 0): Obj => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: "app", annotations: wave(w) } });
const sa = (name: string, w = 0): Obj => ({ apiVersion: "v1", kind: "ServiceAccount", metadata: { name, namespace: "app", annotations: wave(w) } });
function deployment(name: string, w: number, pod: Record<string, unknown> = {}, labels: Record<string, string> = { app: name }, image = "nginx:1.29", namespace = "app"): Obj {
    return {
        apiVersion: "apps/v1",
        kind: "Deployment",
        metadata: { name, namespace, annotations: wave(w) },
        spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: "main", image, ...((pod.container as object) ?? {}) }], ...pod, container: undefined } } },
    };
}
const crd = (kind: string, group: string, w = -3): Obj => ({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${kind.toLowerCase()}s.${group}`, annotations: wave(w) },
    spec: { group, scope: "Namespaced", names: { kind, plural: `${kind.toLowerCase()}s` }, versions: [{ name: "v1", served: true, storage: true }] },
});
const widget = (name: string, w: number): Obj => ({ apiVersion: "example.com/v1", kind: "Widget", metadata: { name, namespace: "app", annotations: wave(w) } });

const rules = (problems: SyncProblem[]) => problems.map((p) => `${p.rule} ${p.file}`);
const check = (files: Map<string, string>, tracking: "annotation" | "label" = "annotation") => checkSync(files, { tracking });

describe("the sync model: a correct render passes", () => {
    it("Namespace, CRD, Secret, ConfigMap, ServiceAccount before or in the wave of what needs them; custom resources after their CRD", () => {
        const files = render(
            ns("app"),
            crd("Widget", "example.com"),
            secret("creds"),
            // Kubernetes tolerates these in the same wave: the kubelet waits for a mount, Argo CD applies ServiceAccounts before Deployments.
            configMap("settings", 0),
            sa("runner", 0),
            deployment("web", 0, { serviceAccountName: "runner", volumes: [{ name: "s", secret: { secretName: "creds" } }, { name: "c", configMap: { name: "settings" } }, { name: "o", secret: { secretName: "absent", optional: true } }] }),
            widget("w", 1),
        );
        expect(check(files)).toEqual([]);
    });

    it("a Secret an ExternalSecret fills (the External Secrets Operator is on the cluster first), a Secret a Job makes in the same wave", () => {
        const es: Obj = { apiVersion: "external-secrets.io/v1", kind: "ExternalSecret", metadata: { name: "db", namespace: "app", annotations: wave(-1) }, spec: { target: { name: "db-creds" } } };
        const job: Obj = {
            apiVersion: "batch/v1",
            kind: "Job",
            metadata: { name: "certgen", namespace: "app", annotations: { "argocd.argoproj.io/hook": "Sync", ...wave(0) } },
            spec: { template: { spec: { containers: [{ name: "create", image: "ghcr.io/jkroepke/kube-webhook-certgen:1.8.7", args: ["create", "--namespace=app", "--secret-name=webhook-cert"] }] } } },
        };
        const web = deployment("web", 0, { volumes: [{ name: "cert", secret: { secretName: "webhook-cert" } }], container: { env: [{ name: "P", valueFrom: { secretKeyRef: { name: "db-creds", key: "p" } } }] } });
        expect(check(render(ns("app"), es, job, web))).toEqual([]);
    });
});

describe("the sync model: each rule fails on a render that breaks it", () => {
    it("apply-namespace: an object applied before its Namespace (a later wave), and a PreSync hook, which runs before any Namespace of the Sync phase", () => {
        const hook: Obj = { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "certgen", namespace: "app", annotations: { "helm.sh/hook": "pre-install,pre-upgrade" } } };
        const problems = check(render(ns("app", 1), configMap("early", 0), hook));
        expect(rules(problems)).toEqual(["apply-namespace c/configmap-app-early.yaml", "apply-namespace c/serviceaccount-app-certgen.yaml"]);
        expect(problems[0]!.message).toBe("ConfigMap app/early (wave 0) is refused by the API server: its namespace is not there yet; it is Namespace app, which comes in wave 1");
        expect(problems[1]!.message).toContain("(PreSync wave 0) is refused by the API server: its namespace is not there yet");
    });

    it("apply-kind: a custom resource before its CRD, and one whose kind no CRD defines", () => {
        expect(rules(check(render(ns("app"), crd("Widget", "example.com", 1), widget("w", 0))))).toEqual(["apply-kind c/widget-app-w.yaml"]);
        const orphan = check(render(ns("app"), widget("w", 0)));
        expect(orphan.map((p) => p.message)).toEqual(["Widget app/w (wave 0) is refused by the API server: the CRD of its kind is not there yet; it is KindServed example.com/Widget, which nothing in the render or on the cluster provides"]);
    });

    it("apply-order: a service-account token Secret before its ServiceAccount (the token controller deletes it)", () => {
        const token: Obj = { apiVersion: "v1", kind: "Secret", type: "kubernetes.io/service-account-token", metadata: { name: "t", namespace: "app", annotations: { ...wave(-1), "kubernetes.io/service-account.name": "runner" } } };
        expect(rules(check(render(ns("app"), token, sa("runner", 0))))).toEqual(["apply-order c/secret-app-t.yaml"]);
    });

    it("waits-later: a Secret, a ConfigMap, a ServiceAccount, a PersistentVolumeClaim the pods need from a later wave", () => {
        const pod = {
            serviceAccountName: "runner",
            volumes: [{ name: "s", secret: { secretName: "creds" } }, { name: "d", persistentVolumeClaim: { claimName: "data" } }],
            container: { envFrom: [{ configMapRef: { name: "settings" } }] },
        };
        const pvc: Obj = { apiVersion: "v1", kind: "PersistentVolumeClaim", metadata: { name: "data", namespace: "app", annotations: wave(1) }, spec: { accessModes: ["ReadWriteOnce"] } };
        const problems = check(render(ns("app"), deployment("web", 0, pod), secret("creds", 1), configMap("settings", 1), sa("runner", 1), pvc));
        expect(rules(problems)).toEqual(["waits-later c/deployment-app-web.yaml"]);
        expect(problems[0]!.message).toBe(
            "Deployment app/web (wave 0) never becomes healthy, so the sync stops there: its ServiceAccount needs ServiceAccount app/runner, which comes in wave 1; " +
                "volume s needs Secret app/creds, which comes in wave 1; volume d needs PersistentVolumeClaim app/data, which comes in wave 1; " +
                "envFrom of container main needs ConfigMap app/settings, which comes in wave 1",
        );
    });

    it("waits-later: a Secret an operator makes from a custom resource of a later wave (cert-manager from a Certificate, ECK from an Elasticsearch)", () => {
        const certManager = deployment("cert-manager", 0, {}, { app: "cm" }, "quay.io/jetstack/cert-manager-controller:v1.21.1");
        const eck: Obj = { ...deployment("eck", 0, {}, { app: "eck" }, "docker.elastic.co/eck/eck-operator:3.5.0"), kind: "StatefulSet" };
        const issuer: Obj = { apiVersion: "cert-manager.io/v1", kind: "Issuer", metadata: { name: "self", namespace: "app", annotations: wave(1) }, spec: { selfSigned: {} } };
        const cert: Obj = { apiVersion: "cert-manager.io/v1", kind: "Certificate", metadata: { name: "serving", namespace: "app", annotations: wave(1) }, spec: { secretName: "serving-cert", issuerRef: { name: "self" } } };
        const es: Obj = { apiVersion: "elasticsearch.k8s.elastic.co/v1", kind: "Elasticsearch", metadata: { name: "logs", namespace: "app", annotations: wave(1) }, spec: {} };
        const operator = deployment("operator", 0, { volumes: [{ name: "cert", secret: { secretName: "serving-cert" } }] });
        const setup: Obj = { ...deployment("setup", 0, { container: { env: [{ name: "PW", valueFrom: { secretKeyRef: { name: "logs-es-elastic-user", key: "elastic" } } }] } }), apiVersion: "batch/v1", kind: "Job" };
        const crds = [crd("Issuer", "cert-manager.io"), crd("Certificate", "cert-manager.io"), crd("Elasticsearch", "elasticsearch.k8s.elastic.co")];
        const problems = check(render(ns("app"), ...crds, certManager, eck, issuer, cert, es, operator, setup));
        expect(rules(problems)).toEqual(["waits-later c/deployment-app-operator.yaml", "waits-later c/job-app-setup.yaml"]);
        expect(problems[0]!.message).toContain("volume cert needs Secret app/serving-cert, which cert-manager makes from Certificate app/serving (wave 1)");
        expect(problems[1]!.message).toContain("env PW of container main needs Secret app/logs-es-elastic-user, which ECK makes from Elasticsearch app/logs (wave 1)");
        // In the wave of the custom resource, Kubernetes tolerates it: the pods wait until the operator has made the Secret.
        const fixed = render(ns("app"), ...crds, certManager, eck, issuer, cert, es, { ...operator, metadata: { ...operator.metadata, annotations: wave(1) } }, { ...setup, metadata: { ...setup.metadata, annotations: wave(1) } });
        expect(check(fixed)).toEqual([]);
    });

    it("waits-later: a claim whose storage class binds on first consumer, in a wave before the pod that mounts it", () => {
        const sc: Obj = { apiVersion: "storage.k8s.io/v1", kind: "StorageClass", metadata: { name: "late", annotations: wave(0) }, provisioner: "ebs.csi.aws.com", volumeBindingMode: "WaitForFirstConsumer" };
        const pvc: Obj = { apiVersion: "v1", kind: "PersistentVolumeClaim", metadata: { name: "data", namespace: "app", annotations: wave(0) }, spec: { storageClassName: "late" } };
        const problems = check(render(ns("app"), sc, pvc, deployment("db", 1, { volumes: [{ name: "d", persistentVolumeClaim: { claimName: "data" } }] })));
        expect(rules(problems)).toEqual(["waits-later c/persistentvolumeclaim-app-data.yaml"]);
        expect(problems[0]!.message).toContain("a pod that mounts it (its storage class binds on first consumer) needs ClaimBound app/data, which the scheduler, placing a pod that mounts it makes from Deployment app/db (wave 1)");
    });

    it("waits-later: an Ingress whose IngressClass comes in a later wave", () => {
        const ingress: Obj = { apiVersion: "networking.k8s.io/v1", kind: "Ingress", metadata: { name: "web", namespace: "app", annotations: wave(0) }, spec: { ingressClassName: "nginx", rules: [{ host: "web.example.com" }] } };
        const cls: Obj = { apiVersion: "networking.k8s.io/v1", kind: "IngressClass", metadata: { name: "nginx", annotations: wave(1) }, spec: { controller: "nginx.org/ingress-controller" } };
        const controller = deployment("ic", 0, { container: { args: ["-ingress-class=nginx", "-report-ingress-status"] } });
        const problems = check(render(ns("app"), cls, controller, ingress));
        expect(rules(problems)).toEqual(["waits-later c/ingress-app-web.yaml"]);
        expect(problems[0]!.message).toContain("its IngressClass needs IngressClass nginx, which comes in wave 1");
    });

    it("waits-never: a Secret nothing provides, and an Ingress no controller of its class publishes an address for (Argo CD's Ingress health)", () => {
        const ingress: Obj = { apiVersion: "networking.k8s.io/v1", kind: "Ingress", metadata: { name: "web", namespace: "app", annotations: wave(0) }, spec: { ingressClassName: "nginx", rules: [{ host: "web.example.com" }] } };
        const cls: Obj = { apiVersion: "networking.k8s.io/v1", kind: "IngressClass", metadata: { name: "nginx", annotations: wave(0) }, spec: { controller: "nginx.org/ingress-controller" } };
        // The controller serves the class but does not report status (no -report-ingress-status).
        const controller = deployment("ic", 0, { container: { args: ["-ingress-class=nginx"] } });
        const problems = check(render(ns("app"), cls, controller, ingress, deployment("web", 0, { volumes: [{ name: "s", secret: { secretName: "nowhere" } }] })));
        expect(rules(problems)).toEqual(["waits-never c/deployment-app-web.yaml", "waits-never c/ingress-app-web.yaml"]);
        expect(problems[0]!.message).toContain("volume s needs Secret app/nowhere, which nothing in the render or on the cluster provides");
        const reporting = deployment("ic", 0, { container: { args: ["-ingress-class=nginx", "-report-ingress-status"] } });
        expect(check(render(ns("app"), cls, reporting, ingress))).toEqual([]);
    });

    it("webhook-refuses and webhook-unready: a Fail webhook whose backend and CA come in the wave of what it intercepts", () => {
        const webhook: Obj = {
            apiVersion: "admissionregistration.k8s.io/v1",
            kind: "ValidatingWebhookConfiguration",
            metadata: { name: "widgets", annotations: { ...wave(0), "cert-manager.io/inject-ca-from": "app/serving" } },
            webhooks: [{ name: "vwidget.example.com", failurePolicy: "Fail", clientConfig: { service: { name: "webhook", namespace: "app" } }, rules: [{ apiGroups: ["example.com"], apiVersions: ["v1"], operations: ["CREATE", "UPDATE"], resources: ["widgets"] }] }],
        };
        const service: Obj = { apiVersion: "v1", kind: "Service", metadata: { name: "webhook", namespace: "app", annotations: wave(0) }, spec: { selector: { app: "operator" } } };
        const cainjector = deployment("cainjector", 0, {}, { app: "cainjector" }, "quay.io/jetstack/cert-manager-cainjector:v1.21.1");
        const certManager = deployment("cert-manager", 0, {}, { app: "cm" }, "quay.io/jetstack/cert-manager-controller:v1.21.1");
        const issuer: Obj = { apiVersion: "cert-manager.io/v1", kind: "Issuer", metadata: { name: "self", namespace: "app", annotations: wave(1) }, spec: { selfSigned: {} } };
        const cert: Obj = { apiVersion: "cert-manager.io/v1", kind: "Certificate", metadata: { name: "serving", namespace: "app", annotations: wave(1) }, spec: { secretName: "serving-cert", issuerRef: { name: "self" } } };
        const operator = deployment("operator", 1, { volumes: [{ name: "cert", secret: { secretName: "serving-cert" } }] }, { app: "operator" });
        const crds = [crd("Issuer", "cert-manager.io"), crd("Certificate", "cert-manager.io"), crd("Widget", "example.com")];
        const problems = check(render(ns("app"), ...crds, webhook, service, cainjector, certManager, issuer, cert, operator, widget("w", 1)));
        expect(rules(problems)).toEqual(["webhook-unready c/validatingwebhookconfiguration--widgets.yaml", "webhook-refuses c/widget-app-w.yaml"]);
        expect(problems[1]!.message).toContain("Widget app/w (wave 1) is refused: webhook vwidget.example.com of ValidatingWebhookConfiguration widgets (failurePolicy Fail) intercepts it and cannot answer yet");
        // With the configuration in the wave of its CA and backend, and what it intercepts after them, the sync completes.
        const fixed = render(ns("app"), ...crds, { ...webhook, metadata: { ...webhook.metadata, annotations: { ...webhook.metadata!.annotations, ...wave(1) } } }, service, cainjector, certManager, issuer, cert, operator, widget("w", 2));
        expect(check(fixed)).toEqual([]);
        // A webhook that fails open (Ignore) refuses nothing.
        const ignore = { ...webhook, webhooks: [{ ...(webhook.webhooks as object[])[0], failurePolicy: "Ignore" }] };
        expect(check(render(ns("app"), ...crds, ignore, service, cainjector, certManager, issuer, cert, operator, widget("w", 1)))).toEqual([]);
    });

    it("invalid-field: an Ingress host that is no DNS name (a placeholder, an IP address) and an image that is no reference", () => {
        const ingress: Obj = { apiVersion: "networking.k8s.io/v1", kind: "Ingress", metadata: { name: "web", namespace: "app" }, spec: { rules: [{ host: "MARA_PLACEHOLDER_LB_HOSTNAME" }], tls: [{ hosts: ["203.0.113.10"] }] } };
        const problems = check(render(ns("app"), ingress, deployment("web", 0, {}, { app: "web" }, "MARA_PLACEHOLDER_REGISTRY_REPOSITORY@MARA_PLACEHOLDER_KIC_IMAGE_DIGEST")));
        expect(problems.filter((p) => p.rule === "invalid-field").map((p) => p.message)).toEqual([
            'image "MARA_PLACEHOLDER_REGISTRY_REPOSITORY@MARA_PLACEHOLDER_KIC_IMAGE_DIGEST" of container main is not a valid image reference ([registry/]repository[:tag][@digest], lower-case repository): the kubelet never starts it',
            'Ingress host "203.0.113.10" must be a DNS name, not an IP address: the API server refuses the Ingress',
            'Ingress host "MARA_PLACEHOLDER_LB_HOSTNAME" must be a lower-case DNS name (RFC 1123 subdomain): the API server refuses the Ingress',
        ]);
    });

    it("tracking: label tracking breaks a ServiceMonitor that selects by app.kubernetes.io/instance; annotation tracking a cluster-scoped object with a namespace", () => {
        const sm: Obj = { apiVersion: "monitoring.coreos.com/v1", kind: "ServiceMonitor", metadata: { name: "web", namespace: "app", annotations: wave(1) }, spec: { selector: { matchLabels: { "app.kubernetes.io/instance": "web" } } } };
        const files = render(ns("app"), crd("ServiceMonitor", "monitoring.coreos.com"), sm);
        expect(check(files, "annotation")).toEqual([]);
        expect(check(files, "label").map((p) => p.message)).toEqual(["ServiceMonitor app/web selects by app.kubernetes.io/instance (spec.selector), which label tracking overwrites with the Application's name: it would select nothing"]);
        const scoped: Obj = { apiVersion: "rbac.authorization.k8s.io/v1", kind: "ClusterRole", metadata: { name: "reader", namespace: "app", annotations: wave(0) } };
        expect(check(render(ns("app"), scoped)).map((p) => `${p.rule}: ${p.message}`)).toEqual(["tracking: ClusterRole reader is cluster-scoped but names a namespace: its tracking id would never match it"]);
    });
});
