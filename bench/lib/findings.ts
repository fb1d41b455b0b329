/**
 * Dependencies in the program that make one resource wait for another whose outputs it does not
 * need at install time. Each finding is matched against the recorded graph on every run; the report
 * says whether it is still present, whether it is on the critical path, and what removing it would
 * save. The program is never changed by the benchmark: the fix is a recommendation.
 */
import type { Graph, Node } from "./graph";
import { edgeKey } from "./graph";

/** A dependency the program should not have. */
export interface Finding {
    readonly id: string;
    /** Resource A (the one that waits). */
    readonly waiter: string;
    /** Resource B (what it waits for). */
    readonly waitsFor: string;
    /** Why A needs nothing of B. */
    readonly why: string;
    /** The change that removes the wait. */
    readonly fix: string;
    /** Matches A (the waiting registration). */
    readonly isWaiter: (n: Node, graph: Graph) => boolean;
    /** Matches B (the dependency). */
    readonly isDependency: (n: Node, graph: Graph) => boolean;
}

/** Whether `n` is (a descendant of) a component of type `type`. */
function under(n: Node, graph: Graph, type: string): boolean {
    for (let cur: Node | undefined = n; cur; cur = cur.reg.parent ? graph.get(cur.reg.parent) : undefined) if (cur.reg.type === type) return true;
    return false;
}

export const FINDINGS: readonly Finding[] = [
    {
        id: "kic-waits-for-otel-collector",
        waiter: "kubernetes:helm.sh/v3:Release ingress-controller-release (input `values`)",
        waitsFor: "kubernetes:opentelemetry.io/v1beta1:OpenTelemetryCollector observability-collector (and so cert-manager and the OpenTelemetry operator release)",
        why:
            "Platform passes `tracingEndpoint: this.observability.otlpGrpcEndpoint`, an interpolation of the collector's and its namespace's metadata.name. " +
            "The value is fixed by the program (`simplest-collector.observability.svc.cluster.local:9978`), and NGINX only sends spans at run time, retrying; " +
            "so the ingress controller's Helm release waits for cert-manager → OpenTelemetry operator → collector for a string it already knows. " +
            "MARA's ingress controller did not wait for observability either (its tracing address was a literal).",
        fix:
            "Expose the endpoint as a plain value: in Observability add `public readonly otlpGrpcAddress: string` computed from COLLECTOR_NAME, the namespace argument and grpcPort " +
            "(or compute it in Platform from the same constants), and pass that to IngressController's `tracingEndpoint` instead of the Output.",
        isWaiter: (n) => n.reg.type === "kubernetes:helm.sh/v3:Release" && /(^|-)ingress-controller-release$/.test(n.reg.name),
        isDependency: (n, g) => under(n, g, "mara:observability:Observability"),
    },
    {
        id: "bos-config-waits-for-otel-collector",
        waiter: "kubernetes:core/v1:ConfigMap bank-of-sirius-tracing (input `data`), and through `dependsOn: [...config]` all nine Bank of Sirius workloads",
        waitsFor: "kubernetes:opentelemetry.io/v1beta1:OpenTelemetryCollector observability-collector",
        why: "index.ts passes `tracingEndpoint: platform.observability.otlpGrpcEndpoint` to the Application; the tracing ConfigMap only needs the fixed address string.",
        fix: "Pass the same plain `otlpGrpcAddress` string to Application's `tracingEndpoint`.",
        isWaiter: (n, g) => n.reg.type === "kubernetes:core/v1:ConfigMap" && n.reg.name.endsWith("-tracing") && under(n, g, "mara:app:Application"),
        isDependency: (n, g) => under(n, g, "mara:observability:Observability"),
    },
    {
        id: "log-agent-waits-for-kibana",
        waiter: "mara:observability:LogAgent log-agent and its namespace (dependsOn, from `{ dependsOn: [this.logstore] }` in components/platform.ts)",
        waitsFor: "kubernetes:kibana.k8s.elastic.co/v1:Kibana logstore-kibana",
        why:
            "`dependsOn` on the whole Logstore component waits for all its children, Kibana included. Fluent Bit writes to Elasticsearch only and reads nothing of Kibana; " +
            "its Helm release already waits for Elasticsearch through `elasticsearchHost` (an interpolation of the Elasticsearch resource's name).",
        fix:
            "In Platform drop `dependsOn: [this.logstore]` from the LogAgent (the release keeps waiting for Elasticsearch through `elasticsearchHost`), " +
            "or depend on the Elasticsearch resource only (expose it from Logstore, e.g. `public readonly elasticsearch: pulumi.Resource`).",
        isWaiter: (n, g) => under(n, g, "mara:observability:LogAgent"),
        isDependency: (n) => n.reg.type.endsWith(":Kibana"),
    },
    {
        id: "image-push-waits-for-cluster",
        waiter: "docker:index/remoteImage:RemoteImage kic-image-pull and the push after it (through their parents IngressControllerImage → Platform)",
        waitsFor: "pulumi:providers:kubernetes kubeconfig-provider, and so the whole cluster (EKS control plane and nodes, DOKS)",
        why:
            "IngressControllerImage is a child of Platform, and Platform's own registration waits for the providers it is given (`{ providers: [cluster.provider] }` in index.ts), " +
            "so the image is copied into the registry only once the cluster is ready, although it needs only the registry (ECR/DOCR) and its credentials.",
        fix:
            "Create IngressControllerImage outside Platform — e.g. in index.ts next to the Docker provider, passing its repository and tag to Platform — " +
            "or let Platform take the Kubernetes provider as an argument and hand it to the add-ons, instead of receiving it in `opts.providers`.",
        isWaiter: (n) => n.reg.type === "mara:registry:IngressControllerImage",
        isDependency: (n) => n.reg.type === "mara:platform:Platform",
    },
];

/** Edges of the graph a finding covers, as dropped-edge keys. */
export function findingEdges(f: Finding, graph: Graph): string[] {
    const keys: string[] = [];
    for (const n of graph.values()) {
        if (!f.isWaiter(n, graph)) continue;
        for (const e of n.edges) if (f.isDependency(graph.get(e.to)!, graph)) keys.push(edgeKey(n.reg.urn, e.to));
    }
    return keys;
}
