/**
 * Fields whose form the Kubernetes schemas do not express, but which the API server or the kubelet check: an
 * Ingress host must be a lower-case DNS name (the API server refuses anything else, an IP address included), and a
 * container image must be a valid reference (the kubelet reports InvalidImageName and never starts the container).
 * A placeholder in such a field makes an object that fails at apply or never runs.
 */
import { isMap } from "../../contracts/kubeObject";
import type { SyncProblem } from "./replay";
import type { SyncObject } from "./objects";
import { containersOf, podSpecOf } from "./podNeeds";

const LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS_SUBDOMAIN = new RegExp(`^${LABEL}(\\.${LABEL})*$`);
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** Why an Ingress host is refused by the API server, or undefined when it is accepted. */
export function ingressHostProblem(host: string): string | undefined {
    const name = host.startsWith("*.") ? host.slice(2) : host;
    if (IPV4.test(name) || name.includes(":")) return "must be a DNS name, not an IP address";
    if (host.length > 253 || !DNS_SUBDOMAIN.test(name)) return "must be a lower-case DNS name (RFC 1123 subdomain)";
    return undefined;
}

// The grammar of distribution/reference, which the kubelet parses image names with.
const DOMAIN_COMPONENT = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
const DOMAIN = `${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*(?::[0-9]+)?`;
const PATH_COMPONENT = "[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*";
const TAG = "[\\w][\\w.-]{0,127}";
const DIGEST = "[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}";
const REFERENCE = new RegExp(`^(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*(?::${TAG})?(?:@${DIGEST})?$`);

/** Why an image reference cannot be pulled as written, or undefined when it is well formed. */
export function imageProblem(image: string): string | undefined {
    if (!REFERENCE.test(image)) return "is not a valid image reference ([registry/]repository[:tag][@digest], lower-case repository)";
    const digest = image.split("@")[1];
    if (digest?.startsWith("sha256:") && !/^sha256:[0-9a-f]{64}$/.test(digest)) return "has a sha256 digest that is not 64 lower-case hex digits";
    return undefined;
}

/** Every field of the render's objects the API server or the kubelet would refuse. */
export function fieldProblems(objects: readonly SyncObject[]): SyncProblem[] {
    const problems: SyncProblem[] = [];
    for (const o of objects) {
        const spec = o.object.spec;
        if (o.object.kind === "Ingress" && isMap(spec)) {
            const hosts = [
                ...((spec.rules as { host?: string }[] | undefined) ?? []).map((r) => r.host),
                ...((spec.tls as { hosts?: string[] }[] | undefined) ?? []).flatMap((t) => t.hosts ?? []),
            ].filter((h): h is string => typeof h === "string");
            for (const host of new Set(hosts)) {
                const why = ingressHostProblem(host);
                if (why) problems.push({ rule: "invalid-field", file: o.file, message: `Ingress host "${host}" ${why}: the API server refuses the Ingress` });
            }
        }
        const pod = podSpecOf(o.object);
        for (const c of pod ? containersOf(pod) : []) {
            const why = imageProblem(String(c.image ?? ""));
            if (why) problems.push({ rule: "invalid-field", file: o.file, message: `image "${String(c.image)}" of container ${String(c.name)} ${why}: the kubelet never starts it` });
        }
    }
    return problems;
}
