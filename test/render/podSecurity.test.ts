/**
 * Pod Security Standards, offline: the platform an existing-cluster stack deploys (every Helm release rendered by
 * Helm from the vendored chart, every typed object, as `mara render` writes them) and Argo CD's release as
 * `mara:delivery: gitops` installs it, and the Pulumi Kubernetes Operator's as `operator` does, evaluated by the PodSecurity admission's checks (podSecurity.ts). Each
 * namespace's enforce label is the highest level its pod templates meet, lowered only where an operator starts pods
 * the render cannot hold, and each such namespace is named with its reason. The engine tier asks the real admission
 * the same question of the pods the platform runs (test/engine/platform.test.ts).
 */
import { parseAllDocuments } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import program from "../../index";
import { validateConfig } from "../../config";
import { renderPlatform } from "../../render/render";
import { argoCdValues } from "../../components/argoCd";
import { ARGOCD_NAMESPACE, ARGOCD_RELEASE } from "../../components/argoCd/applications";
import { podSecurityLabels, type PodSecurityLevel } from "../../components/podSecurity";
import { OPERATOR_NAMESPACE, OPERATOR_RELEASE } from "../../components/pulumiOperator/stack";
import { CHARTS } from "../../contracts";
import { KubeObject, parseManifest, vendoredChart } from "../support/charts";
import { helmTemplate } from "../support/helm";
import { KUBECONFIG_TEXT, rawConfig } from "../support/config";
import { levelMet, podTemplatesOf, PodTemplate, violations } from "./podSecurity";

/**
 * Namespaces whose operator starts pods the render does not hold, and the level those pods meet.
 * observability: the OpenTelemetry operator's collector pods carry no securityContext (baseline, not restricted).
 * logstore: ECK's Elasticsearch and Kibana pods set no seccomp profile (baseline, not restricted).
 * pulumi-kubernetes-operator: the Pulumi Kubernetes Operator's workspace pods follow its own template (baseline at most).
 */
const OPERATOR_PODS: Record<string, PodSecurityLevel> = { observability: "baseline", logstore: "baseline", [OPERATOR_NAMESPACE]: "baseline" };

const ORDER: PodSecurityLevel[] = ["privileged", "baseline", "restricted"];
const lower = (a: PodSecurityLevel, b: PodSecurityLevel) => ORDER[Math.min(ORDER.indexOf(a), ORDER.indexOf(b))]!;

let objects: KubeObject[];
let templates: PodTemplate[];

beforeAll(async () => {
    // The stack of the engine tier's platform test: an existing cluster with MetalLB and the NFS provisioner.
    const raw = rawConfig({
        "mara:infraType": "kubeconfig",
        "mara:kubeconfig": KUBECONFIG_TEXT,
        "mara:kubeContext": "lab-admin",
        "mara:clusterName": "engine",
        "mara:fqdn": "mara.engine.test",
        "mara:metallbAddresses": '["192.168.77.240-192.168.77.250"]',
        "mara:nfsServer": "192.168.77.10",
        "mara:nfsPath": "/srv/nfs/mara",
    });
    const rendered = await renderPlatform({ raw, config: validateConfig(raw).config!, program, secrets: { mode: "omit" } });
    objects = [...rendered.files.values()].flatMap((t) => parseAllDocuments(t).map((d) => d.toJS() as KubeObject)).filter((o) => o && typeof o === "object");
    const argo = await helmTemplate({ release: ARGOCD_RELEASE, namespace: ARGOCD_NAMESPACE, chartPath: vendoredChart(CHARTS.argoCd.chart, CHARTS.argoCd.version)!, values: argoCdValues(), kubeVersion: "1.35", includeCrds: false });
    if (!argo.ok) throw new Error(argo.error);
    objects.push(...parseManifest(argo.manifest));
    // Argo CD's namespace is the program's (components/argoCd/component.ts) but only a GitOps stack creates it.
    objects.push({ apiVersion: "v1", kind: "Namespace", metadata: { name: ARGOCD_NAMESPACE, labels: { "pod-security.kubernetes.io/enforce": "restricted", "pod-security.kubernetes.io/warn": "restricted", "pod-security.kubernetes.io/audit": "restricted" } } } as KubeObject);
    // The Pulumi Kubernetes Operator as mara:delivery operator installs it (its CRDs applied by the program), in its namespace.
    const operator = await helmTemplate({ release: OPERATOR_RELEASE, namespace: OPERATOR_NAMESPACE, chartPath: vendoredChart(CHARTS.pulumiOperator.chart, CHARTS.pulumiOperator.version)!, values: {}, kubeVersion: "1.35", includeCrds: false });
    if (!operator.ok) throw new Error(operator.error);
    // The chart writes its objects without a namespace; Helm installs them into the release's.
    objects.push(...parseManifest(operator.manifest).map((o) => (/^Cluster/.test(o.kind!) ? o : { ...o, metadata: { namespace: OPERATOR_NAMESPACE, ...o.metadata } })));
    objects.push({ apiVersion: "v1", kind: "Namespace", metadata: { name: OPERATOR_NAMESPACE, labels: podSecurityLabels("baseline") } } as KubeObject);
    templates = podTemplatesOf(objects as never);
}, 600_000);

describe("Pod Security Standards of the platform's namespaces", () => {
    it("every namespace is enforced at the highest level its pod templates meet, warned and audited at restricted", () => {
        const namespaces = objects.filter((o) => o.kind === "Namespace");
        expect(namespaces.map((n) => n.metadata!.name).sort()).toEqual(["argocd", "bos", "cert-manager", "logagent", "logstore", "metallb-system", "nfs-provisioner", "nginx-ingress", "observability", "prometheus", "pulumi-kubernetes-operator"]);
        const got: Record<string, string> = {};
        const want: Record<string, string> = {};
        for (const n of namespaces) {
            const name = n.metadata!.name!;
            const labels = (n.metadata! as { labels?: Record<string, string> }).labels ?? {};
            got[name] = `${labels["pod-security.kubernetes.io/enforce"]} warn=${labels["pod-security.kubernetes.io/warn"]} audit=${labels["pod-security.kubernetes.io/audit"]}`;
            const met = levelMet(templates.filter((t) => t.namespace === name));
            want[name] = `${lower(met, OPERATOR_PODS[name] ?? "restricted")} warn=restricted audit=restricted`;
        }
        expect(got).toEqual(want);
    });

    it("every pod template is in a namespace the platform labels", () => {
        const labelled = new Set(objects.filter((o) => o.kind === "Namespace").map((n) => n.metadata!.name));
        expect(templates.length).toBeGreaterThan(20);
        expect(templates.filter((t) => !labelled.has(t.namespace)).map((t) => t.owner)).toEqual([]);
    });

    it("the exceptions are the ones docs/policy.md names: host network, PID and paths for the node exporter, host paths for Fluent Bit, host network and NET_RAW for MetalLB's speaker", () => {
        const baseline = templates.flatMap((t) => violations(t).filter((v) => v.level === "baseline").map((v) => `${t.owner}: ${v.check}`)).sort();
        expect(baseline).toEqual([
            "DaemonSet logagent/fluent-bit: hostPathVolumes",
            "DaemonSet metallb-system/metallb-speaker: capabilities_baseline",
            "DaemonSet metallb-system/metallb-speaker: hostNamespaces",
            "DaemonSet metallb-system/metallb-speaker: hostProbesAndHostLifecycle",
            "DaemonSet prometheus/prometheus-prometheus-node-exporter: hostNamespaces",
            "DaemonSet prometheus/prometheus-prometheus-node-exporter: hostPathVolumes",
        ]);
    });

    it("the checks fail what they should: a privileged container, a hostPath, a missing seccomp profile, a root user", () => {
        const pod = (spec: Record<string, unknown>): PodTemplate => ({ owner: "Pod t/x", namespace: "t", metadata: {}, spec });
        const restricted = { securityContext: { runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } } };
        const c = (sc: Record<string, unknown>) => ({ name: "c", image: "i", securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] }, ...sc } });
        expect(levelMet([pod({ ...restricted, containers: [c({})] })])).toBe("restricted");
        expect(levelMet([pod({ ...restricted, containers: [c({ privileged: true })] })])).toBe("privileged");
        expect(levelMet([pod({ ...restricted, containers: [c({})], volumes: [{ name: "h", hostPath: { path: "/" } }] })])).toBe("privileged");
        expect(levelMet([pod({ securityContext: { runAsNonRoot: true }, containers: [c({})] })])).toBe("baseline");
        expect(levelMet([pod({ ...restricted, containers: [c({ runAsUser: 0 })] })])).toBe("baseline");
        expect(levelMet([pod({ ...restricted, containers: [c({ capabilities: { drop: ["ALL"], add: ["NET_RAW"] } })] })])).toBe("privileged");
        expect(levelMet([pod({ ...restricted, hostUsers: false, securityContext: { seccompProfile: { type: "RuntimeDefault" } }, containers: [c({})] })])).toBe("restricted");
    });
});
