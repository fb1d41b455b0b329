/**
 * What controllers make on the cluster that a render does not contain, and from what: the Secret an ExternalSecret
 * or a Certificate fills, the Secrets ECK creates for an Elasticsearch, the CA cert-manager's injector writes into a
 * webhook configuration, the address an ingress controller publishes, the default ServiceAccount of a new
 * Namespace. A production happens once the object it comes from is applied, the controller making it is healthy,
 * and what it needs exists.
 */
import { apiGroupOf } from "../kinds";
import { caBundleOf, certificateIssuer, claimBound, ingressStatusOf, kindServed, Need } from "./needs";
import type { ObjectIndex, Ref, SyncObject } from "./objects";
import { imagePath, imagesOf, operatorOf, workloadRunning } from "./operators";
import { claimsOf, containersOf, podSpecOf } from "./podNeeds";

/** Something a controller makes. */
export interface Production {
    makes: Ref;
    /** The object it is made from. */
    from: SyncObject;
    /** Who makes it, for messages. */
    by: string;
    /**
     * The workload that must be healthy for it to be made; undefined when the cluster does it (Kubernetes' own
     * controllers, the External Secrets Operator) or when `from` makes it itself (a Job, a webhook server).
     */
    controller?: SyncObject;
    /** Whether it exists as soon as `from` is applied (a CRD's kind is served once the CRD is), before anything settles. */
    atApply?: boolean;
    /** What must exist besides. */
    needs: Need[];
}

type Spec = Record<string, unknown>;
const is = (o: SyncObject, group: string, kind: string) => apiGroupOf(o.object.apiVersion) === group && o.object.kind === kind;
const secretRef = (namespace: string, name: string): Ref => ({ group: "", kind: "Secret", namespace, name });

/** The value of a `--name=value` (or `-name=value`) argument among a container's args. */
function flag(args: readonly string[], name: string, namespace: string): string | undefined {
    const hit = args.find((a) => a.startsWith(`--${name}=`) || a.startsWith(`-${name}=`));
    // Helm charts pass the pod's namespace through the downward API; the object's namespace is what it resolves to.
    return hit?.slice(hit.indexOf("=") + 1).replace("$(POD_NAMESPACE)", namespace);
}

const argsOf = (o: SyncObject): string[][] => {
    const pod = podSpecOf(o.object);
    return pod ? containersOf(pod).map((c) => [...((c.command as string[]) ?? []), ...((c.args as string[]) ?? [])].map(String)) : [];
};

/** Every production a render's objects lead to. */
export function productionsOf(index: ObjectIndex): Production[] {
    const out: Production[] = [];
    const certManager = operatorOf(index, "cert-manager.io");
    const cm = certManager === "external" ? undefined : certManager;
    const cainjector = workloadRunning(index, /(^|\/)cert-manager-cainjector$/);
    const eck = operatorOf(index, "elasticsearch.k8s.elastic.co");
    for (const o of index.objects) {
        const ns = o.object.metadata?.namespace ?? "";
        const name = o.object.metadata?.name ?? "";
        const spec = (o.object.spec ?? {}) as Spec;
        if (o.object.kind === "CustomResourceDefinition" && apiGroupOf(o.object.apiVersion) === "apiextensions.k8s.io") {
            const s = spec as { group: string; names: { kind: string } };
            out.push({ makes: kindServed(s.group, s.names.kind), from: o, by: "the API server", atApply: true, needs: [] });
        }
        if (o.object.apiVersion === "v1" && o.object.kind === "Namespace") {
            out.push({ makes: { group: "", kind: "ServiceAccount", namespace: name, name: "default" }, from: o, by: "Kubernetes' service account controller", needs: [] });
        }
        if (is(o, "external-secrets.io", "ExternalSecret")) {
            const target = (spec.target as Spec | undefined)?.name;
            out.push({ makes: secretRef(ns, typeof target === "string" ? target : name), from: o, by: "the External Secrets Operator", needs: [] });
        }
        if (is(o, "cert-manager.io", "Certificate") && typeof spec.secretName === "string") {
            const issuer = certificateIssuer(o);
            out.push({ makes: secretRef(ns, spec.secretName), from: o, by: "cert-manager", controller: cm, needs: issuer ? [{ ref: issuer, when: "run", why: "its issuer" }] : [] });
        }
        if (is(o, "networking.k8s.io", "Ingress")) {
            const a = o.object.metadata?.annotations ?? {};
            const issuer = a["cert-manager.io/cluster-issuer"] ? { group: "cert-manager.io", kind: "ClusterIssuer", name: a["cert-manager.io/cluster-issuer"] } : a["cert-manager.io/issuer"] ? { group: "cert-manager.io", kind: "Issuer", namespace: ns, name: a["cert-manager.io/issuer"] } : undefined;
            for (const tls of issuer ? ((spec.tls as Spec[] | undefined) ?? []) : []) {
                if (typeof tls.secretName === "string") out.push({ makes: secretRef(ns, tls.secretName), from: o, by: "cert-manager (ingress-shim)", controller: cm, needs: [{ ref: issuer!, when: "run", why: "the issuer its annotation names" }] });
            }
        }
        if (eck && eck !== "external" && is(o, "elasticsearch.k8s.elastic.co", "Elasticsearch")) {
            for (const made of [secretRef(ns, `${name}-es-elastic-user`), secretRef(ns, `${name}-es-http-certs-public`), { group: "", kind: "Service", namespace: ns, name: `${name}-es-http` }]) {
                out.push({ makes: made, from: o, by: "ECK", controller: eck, needs: [] });
            }
        }
        if (eck && eck !== "external" && is(o, "kibana.k8s.elastic.co", "Kibana")) {
            out.push({ makes: { group: "", kind: "Service", namespace: ns, name: `${name}-kb-http` }, from: o, by: "ECK", controller: eck, needs: [] });
        }
        out.push(...annotationInjections(o, index, cainjector));
        out.push(...selfProductions(o));
        const pod = podSpecOf(o.object);
        if (pod && ns) {
            for (const claim of claimsOf(pod)) out.push({ makes: claimBound(ns, claim), from: o, by: "the scheduler, placing a pod that mounts it", needs: [] });
        }
    }
    return out;
}

/** The CA cert-manager's CA injector writes into an object from the annotation naming where it comes from. */
function annotationInjections(o: SyncObject, index: ObjectIndex, cainjector: SyncObject | undefined): Production[] {
    const a = o.object.metadata?.annotations ?? {};
    const made = caBundleOf(o.object.kind, o.object.metadata?.name ?? "");
    const split = (v: string) => {
        const [namespace, name] = v.includes("/") ? v.split("/", 2) : [o.object.metadata?.namespace ?? "", v];
        return { namespace: namespace!, name: name! };
    };
    if (a["cert-manager.io/inject-ca-from"]) {
        const { namespace, name } = split(a["cert-manager.io/inject-ca-from"]);
        const cert = index.get({ group: "cert-manager.io", kind: "Certificate", namespace, name });
        const secret = cert && typeof (cert.object.spec as Spec)?.secretName === "string" ? secretRef(namespace, String((cert.object.spec as Spec).secretName)) : { group: "cert-manager.io", kind: "Certificate", namespace, name };
        return [{ makes: made, from: o, by: "cert-manager's CA injector", controller: cainjector, needs: [{ ref: secret, when: "run", why: `the Secret of Certificate ${namespace}/${name}` }] }];
    }
    if (a["cert-manager.io/inject-ca-from-secret"]) {
        const { namespace, name } = split(a["cert-manager.io/inject-ca-from-secret"]);
        return [{ makes: made, from: o, by: "cert-manager's CA injector", controller: cainjector, needs: [{ ref: secretRef(namespace, name), when: "run", why: "the Secret its CA comes from" }] }];
    }
    return [];
}

/**
 * What MetalLB's controller makes when it starts (go.universe.tf/metallb controller/main.go, internal/k8s): the
 * speakers' memberlist Secret named by `--ml-secret-name` or `METALLB_ML_SECRET_NAME`, and, unless its
 * `--webhook-mode` is `disabled`, its webhook's serving certificate (`--webhook-secret`, default
 * `metallb-webhook-cert`) and that certificate's CA in the caBundle of `metallb-webhook-configuration`.
 */
function metallbControllerProductions(o: SyncObject, container: number, args: readonly string[], ns: string): Production[] {
    const pod = podSpecOf(o.object);
    const env = (pod ? (containersOf(pod)[container]?.env as { name: string; value?: string }[] | undefined) : undefined) ?? [];
    const by = "MetalLB's controller";
    const out: Production[] = [];
    const memberlist = flag(args, "ml-secret-name", ns) ?? env.find((e) => e.name === "METALLB_ML_SECRET_NAME")?.value;
    if (memberlist) out.push({ makes: secretRef(ns, memberlist), from: o, by, needs: [] });
    if (flag(args, "webhook-mode", ns) !== "disabled") {
        const cert = secretRef(ns, flag(args, "webhook-secret", ns) ?? "metallb-webhook-cert");
        out.push({ makes: cert, from: o, by, needs: [] });
        out.push({ makes: caBundleOf("ValidatingWebhookConfiguration", "metallb-webhook-configuration"), from: o, by, needs: [{ ref: cert, when: "run", why: "the certificate whose CA it patches in" }] });
    }
    return out;
}

/** What a workload or Job makes by running: a webhook server's CA Secret, webhook certificates, an ingress controller's addresses. */
function selfProductions(o: SyncObject): Production[] {
    const ns = o.object.metadata?.namespace ?? "";
    const out: Production[] = [];
    const images = imagesOf(o).map(imagePath);
    for (const [i, args] of argsOf(o).entries()) {
        const image = images[i] ?? "";
        if (/(^|\/)cert-manager-webhook$/.test(image)) {
            const name = flag(args, "dynamic-serving-ca-secret-name", ns);
            if (name) out.push({ makes: secretRef(flag(args, "dynamic-serving-ca-secret-namespace", ns) ?? ns, name), from: o, by: "cert-manager's webhook", needs: [] });
        }
        if (/(^|\/)kube-webhook-certgen$/.test(image)) {
            const secret = flag(args, "secret-name", ns);
            const secretNs = flag(args, "namespace", ns) ?? ns;
            if (args.includes("create") && secret) out.push({ makes: secretRef(secretNs, secret), from: o, by: "kube-webhook-certgen create", needs: [] });
            const webhook = flag(args, "webhook-name", ns);
            if (args.includes("patch") && webhook && secret) {
                for (const kind of ["ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"]) {
                    out.push({ makes: caBundleOf(kind, webhook), from: o, by: "kube-webhook-certgen patch", needs: [{ ref: secretRef(secretNs, secret), when: "run", why: "the certificate it patches in" }] });
                }
            }
        }
        if (/(^|\/)metallb\/controller$/.test(image)) out.push(...metallbControllerProductions(o, i, args, ns));
        // frr-k8s's webhook server (cmd/statuscleaner: --webhook-port) rotates its own certificate unless told not to.
        if (/(^|\/)metallb\/frr-k8s$/.test(image) && flag(args, "webhook-port", ns) && flag(args, "disable-cert-rotation", ns) !== "true") {
            const cert = secretRef(ns, "frr-k8s-webhook-server-cert");
            out.push({ makes: cert, from: o, by: "frr-k8s's webhook server", needs: [] });
            out.push({ makes: caBundleOf("ValidatingWebhookConfiguration", "frr-k8s-validating-webhook-configuration"), from: o, by: "frr-k8s's webhook server", needs: [{ ref: cert, when: "run", why: "the certificate whose CA it patches in" }] });
        }
        const cls = flag(args, "ingress-class", ns);
        // NGINX Ingress Controller publishes Ingress addresses with -report-ingress-status.
        if (cls && args.some((a) => /^--?report-ingress-status(=true)?$/.test(a))) out.push({ makes: ingressStatusOf(cls), from: o, by: "the ingress controller", needs: [] });
    }
    return out;
}
